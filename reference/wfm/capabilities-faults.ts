// Seams of the faults in reference/faults/capabilities.ts and gateways.ts that make the reference WFM refuse a
// document the spec says it accepts: each entry is one wrong decision, taken only when its fault id is switched on.
import { classifyDocument, extensionKeys } from '../../spec/rules/capabilities.ts';
import { SUPPORTED_DEPLOYMENT_TYPES, SUPPORTED_RUNTIMES, type DeviceCapabilities } from '../../spec/types.ts';
import type { ActiveFaults } from '../faults/types.ts';
import { WfmError } from './http.ts';

interface FaultyRefusal {
  id: string;
  applies(doc: DeviceCapabilities): boolean;
  why: string;
  status: number;
}

const unknown = (known: readonly string[], values: readonly string[] | undefined) => (values ?? []).some((v) => !known.includes(v));
const quantities = (doc: DeviceCapabilities) => [doc.properties.memory, doc.properties.storage].filter((q): q is string => q !== undefined);
const labelKeys = (doc: DeviceCapabilities) => Object.keys(doc.labels ?? {});

const REFUSALS: FaultyRefusal[] = [
  // An unknown x-<name>-extensions member refused instead of ignored (400, or a crash).
  { id: 'CAP-EXT-NOT-REJECTED', applies: (d) => extensionKeys(d).length > 0, why: 'unknown extension', status: 400 },
  { id: 'CAP-EXT-NOT-REJECTED:500', applies: (d) => extensionKeys(d).length > 0, why: 'unknown extension', status: 500 },
  // Label keys compared without case, so twins collide.
  { id: 'CAP-LABELS-CASE-SENSITIVE', applies: (d) => new Set(labelKeys(d).map((k) => k.toLowerCase())).size < labelKeys(d).length, why: 'duplicate label key', status: 422 },
  { id: 'CPU-CORES-DECIMAL', applies: (d) => (d.properties.cpus ?? []).some((c) => !Number.isInteger(c.cores)), why: 'cores must be whole', status: 422 },
  { id: 'CPU-ARCH-OPTIONAL', applies: (d) => (d.properties.cpus ?? []).some((c) => c.architecture === undefined), why: 'cpus[].architecture is required', status: 422 },
  {
    id: 'PROPS-PERIPHERAL-OPTIONAL-FIELDS',
    applies: (d) => (d.properties.peripherals ?? []).some((p) => p.manufacturer === undefined || p.model === undefined),
    why: 'peripherals[] needs manufacturer and model',
    status: 422,
  },
  { id: 'PROPS-PERIPHERALS-EMPTY', applies: (d) => d.properties.peripherals?.length === 0, why: 'peripherals is empty', status: 422 },
  // An unknown enum value refused instead of defaulted to custom.
  { id: 'ENUM-DEFAULT-CUSTOM-RUNTIME', applies: (d) => unknown(SUPPORTED_RUNTIMES, d.properties.supportedRuntimes), why: 'unknown runtime', status: 422 },
  { id: 'ENUM-DEFAULT-CUSTOM-DEPLOYTYPE', applies: (d) => unknown(SUPPORTED_DEPLOYMENT_TYPES, d.properties.supportedDeploymentTypes), why: 'unknown deployment type', status: 422 },
  // Only one of the two P8 forms of a quantity is read.
  { id: 'PROPS-QUANTITY-SPACED-ACCEPTED', applies: (d) => quantities(d).some((q) => q.includes(' ')), why: 'quantity with a space', status: 422 },
  { id: 'PROPS-QUANTITY-UNSPACED-ACCEPTED', applies: (d) => quantities(d).some((q) => !q.includes(' ')), why: 'quantity without a space', status: 422 },
  // The Y* fields treated as required of every device, non-hosting see-thru gateways included.
  { id: 'GW-NONHOSTING-ACCEPTED', applies: (d) => classifyDocument(d.properties) === 'identity-only', why: 'cpus, memory, storage... are required', status: 422 },
];

/** The refusal a switched-on fault makes of a document the clean service accepts; undefined without one. */
export function faultyRefusal(faults: ActiveFaults, doc: DeviceCapabilities): WfmError | undefined {
  const hit = REFUSALS.find((r) => faults.has(r.id) && r.applies(doc));
  return hit && new WfmError(hit.status, `${hit.why} (fault ${hit.id})`);
}
