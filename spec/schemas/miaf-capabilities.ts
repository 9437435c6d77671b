// P10 edition miaf: the capabilities document with a closed root and closed enums (rc.3 schema).
import { SUPPORTED_DEPLOYMENT_TYPES, SUPPORTED_RUNTIMES } from '../types.ts';
import { labelValueSchema, propertiesSchema } from './capabilities.ts';
import { DRAFT, type JsonSchema } from './common.ts';

/** P10: `x-<name>-extensions` with a lowercase name, stricter than the seed edition's `^x-.+-extensions$`. */
export const MIAF_EXTENSION_KEY_PATTERN = '^x-[a-z][a-z0-9-]*-extensions$';

const seedFields = propertiesSchema.properties as Record<string, JsonSchema>;

/** The seed Properties with supportedRuntimes and supportedDeploymentTypes closed (cpu, peripheral and interface enums already are). */
const properties: JsonSchema = {
  ...propertiesSchema,
  properties: {
    ...seedFields,
    supportedRuntimes: { type: 'array', items: { enum: [...SUPPORTED_RUNTIMES] } },
    supportedDeploymentTypes: { type: 'array', items: { enum: [...SUPPORTED_DEPLOYMENT_TYPES] } },
  },
};

export const miafDeviceCapabilitiesSchema: JsonSchema = {
  $schema: DRAFT,
  title: 'MiafDeviceCapabilities',
  type: 'object',
  required: ['properties'],
  properties: {
    properties,
    labels: { type: 'object', additionalProperties: labelValueSchema },
  },
  patternProperties: { [MIAF_EXTENSION_KEY_PATTERN]: { type: 'object' } },
  // P10: the root is closed; apiVersion and kind are rejected like any other key.
  additionalProperties: false,
};
