// §2.1 DeviceCapabilities and §2.1.1 Properties, CPU, Peripheral, CommunicationInterface.
import { CPU_ARCHITECTURES, INTERFACE_TYPES, PERIPHERAL_TYPES } from '../types.ts';
import { DEVICE_ID_PATTERN, DRAFT, type JsonSchema } from './common.ts';

/** Matches an `x-<unique-name>-extensions` root key (§2.1). */
export const EXTENSION_KEY_PATTERN = '^x-.+-extensions$';

const cpu: JsonSchema = {
  type: 'object',
  required: ['cores'],
  properties: {
    cores: { type: 'number', exclusiveMinimum: 0 },
    architecture: { enum: [...CPU_ARCHITECTURES] },
  },
  // Nested objects are closed: the root extensions are §2.1's only extension point, and this catches typos.
  additionalProperties: false,
};

const peripheral: JsonSchema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: [...PERIPHERAL_TYPES] },
    manufacturer: { type: 'string' },
    model: { type: 'string' },
  },
  additionalProperties: false,
};

const communicationInterface: JsonSchema = {
  type: 'object',
  required: ['type'],
  properties: { type: { enum: [...INTERFACE_TYPES] } },
  additionalProperties: false,
};

/** `Y*` fields are optional: whether a device may omit them (identity-only see-thru gateway) is a rule. */
export const propertiesSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'vendor', 'modelNumber', 'serialNumber'],
  properties: {
    id: { type: 'string', pattern: DEVICE_ID_PATTERN },
    vendor: { type: 'string' },
    modelNumber: { type: 'string' },
    serialNumber: { type: 'string' },
    cpus: { type: 'array', items: cpu },
    // The `<amount> <unit>` grammar (with or without the space, P8) is checked by a rule.
    memory: { type: 'string' },
    storage: { type: 'string' },
    peripherals: { type: 'array', items: peripheral },
    interfaces: { type: 'array', items: communicationInterface },
    otelCollector: { type: 'boolean' },
    // Any string: the WFM defaults an unknown value to `custom` instead of rejecting it (§2.1.1).
    supportedRuntimes: { type: 'array', items: { type: 'string' } },
    supportedDeploymentTypes: { type: 'array', items: { type: 'string' } },
  },
  additionalProperties: false,
};

/** A string, a number, a boolean, an array of strings or an array of numbers (§2.1). */
export const labelValueSchema: JsonSchema = {
  type: ['string', 'number', 'boolean', 'array'],
  anyOf: [
    { type: ['string', 'number', 'boolean'] },
    { type: 'array', items: { type: 'string' } },
    { type: 'array', items: { type: 'number' } },
  ],
};

export const deviceCapabilitiesSchema: JsonSchema = {
  $schema: DRAFT,
  title: 'DeviceCapabilities',
  type: 'object',
  required: ['properties'],
  properties: {
    properties: propertiesSchema,
    labels: { type: 'object', additionalProperties: labelValueSchema },
  },
  patternProperties: { [EXTENSION_KEY_PATTERN]: { type: 'object' } },
  // Open root in the seed edition: §2.1 says a document is never rejected because of unknown extensions.
  additionalProperties: true,
};
