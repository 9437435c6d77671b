// Faults of interfaces.md §2.1, §3 and §4.1-4.2 (capabilities PUT/DELETE), with P8 and P9: rewrites of the answers,
// or capabilities decisions of the reference WFM (reference/wfm/decisions/capabilities.ts).
import { isDeepStrictEqual } from 'node:util';
import { extensionKeys } from '../../spec/rules/capabilities.ts';
import { SUPPORTED_DEPLOYMENT_TYPES, SUPPORTED_RUNTIMES, type DeviceCapabilities } from '../../spec/types.ts';
import { WfmError } from '../wfm/http.ts';
import { on, type AnswerView, type Rewrite } from './rewrite.ts';
import type { ServiceFaultImplementation, ServiceFaultTable } from './types.ts';

export const CAPABILITIES = /^\/api\/v1\/(clients\/[^/]+\/)?capabilities\//;

/** A rewrite of the capabilities answers of one method whose status is `from`: to `to`. */
const status = (method: string, from: number, to: number, when: (a: AnswerView) => boolean = () => true): Rewrite =>
  on(method, CAPABILITIES, (a) => (a.status === from && when(a) ? { ...a, status: to } : undefined));
/** The reference WFM's P6 error text says which refusal it is. */
const says = (text: string) => (a: AnswerView) => a.body.toString('utf8').includes(text);

/** A WFM that refuses (with `status`) a document the spec accepts, whenever `applies` holds: its own misreading. */
export function refusingDocument(
  id: string,
  status: number,
  why: string,
  applies: (doc: DeviceCapabilities) => boolean,
): ServiceFaultImplementation {
  return {
    wfm: (base) => ({
      capabilitiesRefusal: (doc) => (applies(doc) ? new WfmError(status, `${why} (fault ${id})`) : base.capabilitiesRefusal(doc)),
    }),
  };
}

const unknown = (known: readonly string[], values: readonly string[] | undefined) => (values ?? []).some((v) => !known.includes(v));
const quantities = (doc: DeviceCapabilities) => [doc.properties.memory, doc.properties.storage].filter((q): q is string => q !== undefined);
const labelKeys = (doc: DeviceCapabilities) => Object.keys(doc.labels ?? {});

/** CAP-LIFE-CREATED: a new document settles only at its first update, which is answered 201 again. */
function createdTwice(): ServiceFaultImplementation {
  return {
    wfm: (base) => {
      const unsettled = new WeakSet<DeviceCapabilities>();
      return {
        answersCreated: (client, deviceId, stored, next) => {
          if (stored !== undefined && !unsettled.has(stored)) return base.answersCreated(client, deviceId, stored, next);
          if (stored === undefined) unsettled.add(next);
          return true;
        },
      };
    },
  };
}

export const implementations: ServiceFaultTable = {
  'CAP-PUT-201': { rewrite: () => status('PUT', 201, 200) },
  'CAP-PUT-200': { rewrite: () => status('PUT', 200, 201) },
  'CAP-PUT-400': { rewrite: () => status('PUT', 400, 422, says('not JSON')) },
  'ERR-NOT-JSON-400': { rewrite: () => status('PUT', 400, 500, says('not JSON')) },
  'ERR-SCHEMA-INVALID-400-OR-422': { rewrite: () => status('PUT', 400, 500, says('malformed DeviceCapabilities')) },
  'CAP-PUT-422': { rewrite: () => status('PUT', 422, 201) },
  'CAP-PUT-403': { rewrite: () => status('PUT', 403, 200) },
  'CAP-DELETE-204': { rewrite: () => status('DELETE', 204, 200) },
  'CAP-DELETE-204:404': { rewrite: () => status('DELETE', 204, 404) },
  'CAP-DELETE-404': { rewrite: () => status('DELETE', 404, 204) },
  'CAP-DELETE-403': { rewrite: () => status('DELETE', 403, 204) },
  // The device is looked up across every client, not only the caller's.
  'CAP-DELETE-SCOPED-404': {
    wfm: () => ({ foreignOwner: (store, deviceId) => [...store.clients.values()].find((c) => c.devices.has(deviceId)) }),
  },
  'CAP-LIFE-CREATED': createdTwice(),
  // A PUT that changes nothing is answered as a create.
  'CAP-LIFE-UPDATED': {
    wfm: (base) => ({
      answersCreated: (client, deviceId, stored, next) =>
        (stored !== undefined && isDeepStrictEqual(stored, next)) || base.answersCreated(client, deviceId, stored, next),
    }),
  },
  // Answers 204 but keeps the documents.
  'CAP-LIFE-DELETED': { wfm: () => ({ deleteRemoves: () => false }) },
  // An unknown x-<name>-extensions member refused instead of ignored (400, or a crash).
  'CAP-EXT-NOT-REJECTED': refusingDocument('CAP-EXT-NOT-REJECTED', 400, 'unknown extension', (d) => extensionKeys(d).length > 0),
  'CAP-EXT-NOT-REJECTED:500': refusingDocument('CAP-EXT-NOT-REJECTED:500', 500, 'unknown extension', (d) => extensionKeys(d).length > 0),
  'CAP-EXT-IGNORED': { wfm: () => ({ extensionsExcuseSemanticErrors: true }) },
  // Label keys compared without case, so twins collide.
  'CAP-LABELS-CASE-SENSITIVE': refusingDocument(
    'CAP-LABELS-CASE-SENSITIVE',
    422,
    'duplicate label key',
    (d) => new Set(labelKeys(d).map((k) => k.toLowerCase())).size < labelKeys(d).length,
  ),
  'CPU-CORES-DECIMAL': refusingDocument('CPU-CORES-DECIMAL', 422, 'cores must be whole', (d) =>
    (d.properties.cpus ?? []).some((c) => !Number.isInteger(c.cores)),
  ),
  'CPU-ARCH-OPTIONAL': refusingDocument('CPU-ARCH-OPTIONAL', 422, 'cpus[].architecture is required', (d) =>
    (d.properties.cpus ?? []).some((c) => c.architecture === undefined),
  ),
  'PROPS-PERIPHERAL-OPTIONAL-FIELDS': refusingDocument(
    'PROPS-PERIPHERAL-OPTIONAL-FIELDS',
    422,
    'peripherals[] needs manufacturer and model',
    (d) => (d.properties.peripherals ?? []).some((p) => p.manufacturer === undefined || p.model === undefined),
  ),
  'PROPS-PERIPHERALS-EMPTY': refusingDocument(
    'PROPS-PERIPHERALS-EMPTY',
    422,
    'peripherals is empty',
    (d) => d.properties.peripherals?.length === 0,
  ),
  // An unknown enum value refused instead of defaulted to custom.
  'ENUM-DEFAULT-CUSTOM-RUNTIME': refusingDocument('ENUM-DEFAULT-CUSTOM-RUNTIME', 422, 'unknown runtime', (d) =>
    unknown(SUPPORTED_RUNTIMES, d.properties.supportedRuntimes),
  ),
  'ENUM-DEFAULT-CUSTOM-DEPLOYTYPE': refusingDocument('ENUM-DEFAULT-CUSTOM-DEPLOYTYPE', 422, 'unknown deployment type', (d) =>
    unknown(SUPPORTED_DEPLOYMENT_TYPES, d.properties.supportedDeploymentTypes),
  ),
  // Only one of the two P8 forms of a quantity is read.
  'PROPS-QUANTITY-SPACED-ACCEPTED': refusingDocument('PROPS-QUANTITY-SPACED-ACCEPTED', 422, 'quantity with a space', (d) =>
    quantities(d).some((q) => q.includes(' ')),
  ),
  'PROPS-QUANTITY-UNSPACED-ACCEPTED': refusingDocument('PROPS-QUANTITY-UNSPACED-ACCEPTED', 422, 'quantity without a space', (d) =>
    quantities(d).some((q) => !q.includes(' ')),
  ),
};
