// Faults of interfaces.md §2.1, §3 and §4.1-4.2 (capabilities PUT/DELETE), with P8 and P9. Behaviour-level faults
// name their seam in reference/wfm/capabilities.ts or capabilities-faults.ts (search for the id).
import { on } from './rewrite.ts';
import type { AnswerView, FaultDefinition } from './types.ts';

export const CAPABILITIES = /^\/api\/v1\/(clients\/[^/]+\/)?capabilities\//;

/** A rewrite of the capabilities answers of one method whose status is `from`: to `to`. */
const status = (method: string, from: number, to: number, when: (a: AnswerView) => boolean = () => true) =>
  on(method, CAPABILITIES, (a) => (a.status === from && when(a) ? { ...a, status: to } : undefined));
/** The reference WFM's P6 error text says which refusal it is. */
const says = (text: string) => (a: AnswerView) => a.body.toString('utf8').includes(text);

/** A behaviour-level fault: its seam sits in the reference WFM's code. */
export const seam = (id: string, breaks: string[], description: string): FaultDefinition => ({ id, service: 'wfm', breaks, description });

export const faults: FaultDefinition[] = [
  {
    id: 'CAP-PUT-201',
    service: 'wfm',
    // CAP-LIFE-CREATED is its §3 twin: the lifecycle table says the same 201.
    breaks: ['CAP-PUT-201', 'CAP-LIFE-CREATED'],
    description: 'answers 200 instead of 201 when PUT creates a capabilities document',
    rewrite: status('PUT', 201, 200),
  },
  { id: 'CAP-PUT-200', service: 'wfm', breaks: ['CAP-PUT-200', 'CAP-LIFE-CREATED', 'CAP-LIFE-UPDATED'], description: 'answers 201 instead of 200 when PUT updates a document', rewrite: status('PUT', 200, 201) },
  {
    id: 'CAP-PUT-400',
    service: 'wfm',
    breaks: ['CAP-PUT-400', 'ERR-CAP-PUT-400', 'ERR-NOT-JSON-400'],
    description: 'answers 422 instead of 400 to a PUT whose body is not JSON',
    rewrite: status('PUT', 400, 422, says('not JSON')),
  },
  {
    id: 'ERR-NOT-JSON-400',
    service: 'wfm',
    breaks: ['ERR-NOT-JSON-400', 'CAP-PUT-400', 'ERR-CAP-PUT-400'],
    description: 'answers 500 to a PUT whose body is not JSON',
    rewrite: status('PUT', 400, 500, says('not JSON')),
  },
  {
    id: 'ERR-SCHEMA-INVALID-400-OR-422',
    service: 'wfm',
    breaks: ['ERR-SCHEMA-INVALID-400-OR-422'],
    description: 'answers 500 to a PUT whose JSON body breaks the DeviceCapabilities schema',
    rewrite: status('PUT', 400, 500, says('malformed DeviceCapabilities')),
  },
  { id: 'CAP-PUT-422', service: 'wfm', breaks: ['CAP-PUT-422', 'ERR-CAP-PUT-422'], description: 'accepts (201) a document with a semantic error', rewrite: status('PUT', 422, 201) },
  { id: 'CAP-PUT-403', service: 'wfm', breaks: ['CAP-PUT-403', 'ERR-CAP-PUT-403'], description: 'answers 200 instead of 403 to a PUT the local policy refuses (a retired client)', rewrite: status('PUT', 403, 200) },
  { id: 'CAP-DELETE-204', service: 'wfm', breaks: ['CAP-DELETE-204'], description: 'answers 200 instead of 204 when DELETE deletes a device', rewrite: status('DELETE', 204, 200) },
  { id: 'CAP-DELETE-204:404', service: 'wfm', breaks: ['CAP-DELETE-204', 'CAP-LIFE-DELETED'], description: 'deletes the device but answers 404', rewrite: status('DELETE', 204, 404) },
  { id: 'CAP-DELETE-404', service: 'wfm', breaks: ['CAP-DELETE-404', 'ERR-CAP-DELETE-404', 'CAP-LIFE-DELETED'], description: 'answers 204 to a DELETE of a device the client does not have', rewrite: status('DELETE', 404, 204) },
  { id: 'CAP-DELETE-403', service: 'wfm', breaks: ['CAP-DELETE-403', 'ERR-CAP-DELETE-403'], description: 'answers 204 instead of 403 to a DELETE the local policy refuses (a retired client)', rewrite: status('DELETE', 403, 204) },
  seam('CAP-DELETE-SCOPED-404', ['CAP-DELETE-SCOPED-404'], "DELETE finds and deletes a device another client registered"),
  seam('CAP-LIFE-CREATED', ['CAP-LIFE-CREATED', 'CAP-PUT-200', 'CAP-LIFE-UPDATED'], 'a created document settles only at its first update, which is answered 201 again'),
  seam('CAP-LIFE-UPDATED', ['CAP-LIFE-UPDATED'], 'answers 201 to a PUT that repeats the stored document unchanged'),
  seam('CAP-LIFE-DELETED', ['CAP-LIFE-DELETED'], 'answers 204 to DELETE but keeps the document'),
  seam('CAP-EXT-NOT-REJECTED', ['CAP-EXT-NOT-REJECTED', 'CAP-EXT-IGNORED'], 'answers 400 to a document with an unknown x-<name>-extensions member'),
  seam('CAP-EXT-NOT-REJECTED:500', ['CAP-EXT-NOT-REJECTED', 'CAP-EXT-IGNORED'], 'answers 500 to a document with an unknown x-<name>-extensions member'),
  seam('CAP-EXT-IGNORED', ['CAP-EXT-IGNORED'], 'an unknown extension excuses a semantic error: the document is accepted with it and refused without'),
  seam('CAP-LABELS-CASE-SENSITIVE', ['CAP-LABELS-CASE-SENSITIVE'], 'compares label keys without case and refuses keys that differ only in case (422)'),
  seam('CPU-CORES-DECIMAL', ['CPU-CORES-DECIMAL'], 'refuses fractional cores such as 0.5 (422)'),
  seam('CPU-ARCH-OPTIONAL', ['CPU-ARCH-OPTIONAL'], 'refuses a cpus entry without architecture (422)'),
  seam('PROPS-PERIPHERAL-OPTIONAL-FIELDS', ['PROPS-PERIPHERAL-OPTIONAL-FIELDS'], 'refuses a peripheral without manufacturer or model (422)'),
  seam('PROPS-PERIPHERALS-EMPTY', ['PROPS-PERIPHERALS-EMPTY'], 'refuses an empty peripherals array (422)'),
  seam('ENUM-DEFAULT-CUSTOM-RUNTIME', ['ENUM-DEFAULT-CUSTOM-RUNTIME'], 'refuses an unknown supportedRuntimes value instead of defaulting it to custom (422)'),
  seam('ENUM-DEFAULT-CUSTOM-DEPLOYTYPE', ['ENUM-DEFAULT-CUSTOM-DEPLOYTYPE'], 'refuses an unknown supportedDeploymentTypes value instead of defaulting it to custom (422)'),
  seam('PROPS-QUANTITY-SPACED-ACCEPTED', ['PROPS-QUANTITY-SPACED-ACCEPTED'], 'reads only the standard\'s "16Gi" and refuses "16 Gi" (422)'),
  seam('PROPS-QUANTITY-UNSPACED-ACCEPTED', ['PROPS-QUANTITY-UNSPACED-ACCEPTED'], 'reads only interfaces.md\'s "16 Gi" and refuses "16Gi" (422)'),
];
