// fast-check arbitraries for suites: valid DeviceCapabilities of every shape, invalid ones that name their defect,
// trees of hierarchical deviceIds, and component states of a status report.
import fc from 'fast-check';
import { HOSTING_FIELDS } from '../../spec/rules/capabilities.ts';
import { QUANTITY_UNITS, type QuantityField, type QuantityFormat } from '../../spec/rules/quantity.ts';
import { schemaOf } from '../../spec/schemas/index.ts';
import { schemaMutations } from '../../spec/schemas/mutations.ts';
import {
  CPU_ARCHITECTURES,
  DEPLOYMENT_STATES,
  INTERFACE_TYPES,
  PERIPHERAL_TYPES,
  SUPPORTED_DEPLOYMENT_TYPES,
  SUPPORTED_RUNTIMES,
  type ComponentStatus,
  type DeviceCapabilities,
  type LabelValue,
  type Properties,
} from '../../spec/types.ts';

export interface ValidCapabilitiesOptions {
  /** `hosting`: every Y* field; `identity-only`: a non-hosting see-thru gateway (§2.2); default either. */
  kind?: 'hosting' | 'identity-only' | 'any';
  /** P8 form of memory and storage; default either. */
  quantityFormat?: QuantityFormat | 'any';
  /** Also runtimes/deployment types no enum knows (the WFM defaults them to `custom`, §2.1.1); default false. */
  unknownEnumValues?: boolean;
  id?: fc.Arbitrary<string>;
}

/** One RFC 3986 unreserved segment, never a dot segment (spec/rules/device-id.ts). */
export const idSegment = (): fc.Arbitrary<string> => fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/).filter((s) => s !== '.' && s !== '..');

export const deviceId = (maxSegments = 4): fc.Arbitrary<string> =>
  fc.array(idSegment(), { minLength: 1, maxLength: maxSegments }).map((s) => s.join('/'));

/** `<amount> <unit>` (or without the space) in the binary units §2.1.1 allows for the field. */
export function quantity(field: QuantityField, format: QuantityFormat | 'any' = 'any'): fc.Arbitrary<string> {
  const amount = fc
    .tuple(fc.nat(4096), fc.option(fc.integer({ min: 1, max: 999 }), { nil: undefined }))
    .map(([w, f]) => (f === undefined ? `${w}` : `${w}.${f}`));
  const space = format === 'any' ? fc.constantFrom(' ', '') : fc.constant(format === 'spaced' ? ' ' : '');
  return fc.tuple(amount, space, fc.constantFrom(...QUANTITY_UNITS[field])).map(([a, s, u]) => `${a}${s}${u}`);
}

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
/** JSON numbers only, and no -0 (it comes back from JSON as 0). */
const jsonNumber = fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
const text = fc.string({ maxLength: 24 });

export const labelValue = (): fc.Arbitrary<LabelValue> =>
  fc.oneof(text, jsonNumber, fc.boolean(), fc.array(text, { maxLength: 4 }), fc.array(jsonNumber, { maxLength: 4 }));
/** Organisation-domain keys as §2.1 recommends, and plain ones it allows. */
export const labelKey = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.tuple(fc.domain(), name).map(([d, n]) => `${d}/${n}`),
    name,
  );
export const labels = (): fc.Arbitrary<Record<string, LabelValue>> => fc.dictionary(labelKey(), labelValue(), { maxKeys: 6 });

const extensions = fc.dictionary(
  fc.stringMatching(/^x-[a-z][a-z0-9-]{0,10}-extensions$/),
  fc.dictionary(name, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  { maxKeys: 2 },
);

function enumList(known: readonly string[], unknown: boolean): fc.Arbitrary<string[]> {
  const value = unknown
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: name })
    : fc.constantFrom(...known);
  return fc.uniqueArray(value, { minLength: 1, maxLength: 3 });
}

function hostingFields(format: QuantityFormat | 'any', unknown: boolean) {
  return fc.record({
    cpus: fc.array(
      fc.record(
        {
          cores: fc.oneof(
            fc.constantFrom(0.5, 1, 2, 4, 8),
            fc.integer({ min: 1, max: 512 }).map((n) => n / 4),
          ),
          architecture: fc.constantFrom(...CPU_ARCHITECTURES),
        },
        { requiredKeys: ['cores'] },
      ),
      { minLength: 1, maxLength: 4 },
    ),
    memory: quantity('memory', format),
    storage: quantity('storage', format),
    peripherals: fc.array(
      fc.record({ type: fc.constantFrom(...PERIPHERAL_TYPES), manufacturer: text, model: text }, { requiredKeys: ['type'] }),
      { maxLength: 4 },
    ),
    interfaces: fc.array(fc.record({ type: fc.constantFrom(...INTERFACE_TYPES) }), { maxLength: 5 }),
    otelCollector: fc.constant(true),
    supportedRuntimes: enumList(SUPPORTED_RUNTIMES, unknown),
    supportedDeploymentTypes: enumList(SUPPORTED_DEPLOYMENT_TYPES, unknown),
  });
}

export function validCapabilities(opts: ValidCapabilitiesOptions = {}): fc.Arbitrary<DeviceCapabilities> {
  const identity = fc.record({ id: opts.id ?? deviceId(), vendor: text, modelNumber: text, serialNumber: text });
  const hosting = fc
    .tuple(identity, hostingFields(opts.quantityFormat ?? 'any', opts.unknownEnumValues ?? false))
    .map(([i, h]): Properties => ({ ...i, ...h }));
  const properties = opts.kind === 'hosting' ? hosting : opts.kind === 'identity-only' ? identity : fc.oneof(hosting, identity);
  return fc
    .tuple(properties, fc.option(labels(), { nil: undefined }), extensions)
    .map(([props, labelSet, ext]) => withLabelsWhereNeeded({ properties: props, ...(labelSet ? { labels: labelSet } : {}), ...ext }));
}

/** §2.1.1: `custom` (reported, or defaulted from an unknown value) needs at least one label. */
function withLabelsWhereNeeded(doc: DeviceCapabilities): DeviceCapabilities {
  const { supportedRuntimes = [], supportedDeploymentTypes = [] } = doc.properties;
  const known = new Set<string>([...SUPPORTED_RUNTIMES, ...SUPPORTED_DEPLOYMENT_TYPES].filter((v) => v !== 'custom'));
  const custom = [...supportedRuntimes, ...supportedDeploymentTypes].some((v) => !known.has(v));
  if (custom && Object.keys(doc.labels ?? {}).length === 0) doc.labels = { 'example.com/custom-runtime': 'wfmck' };
  return doc;
}

export interface InvalidCapabilities {
  doc: unknown;
  /** What is wrong, e.g. `missing /properties/vendor`, `bad id "a//b"`, `custom runtime without labels`. */
  defect: string;
}

const BAD_IDS = ['', ' ', 'a b', 'a//b', '/a', 'a/', 'a/./b', '..', 'a/../b', 'dev%201', 'caf\u00e9', 'a?b', 'a#b', 'a:b', 'a@b'];
const BAD_QUANTITIES = [
  '16',
  '16 GB',
  '16 gi',
  '-1 Gi',
  '1e3 Gi',
  '16  Gi',
  ' 16 Gi',
  '16 Gi ',
  '0x10 Gi',
  '1,5 Gi',
  'Gi',
  '',
  '16 G',
  '16 KiB',
];

/** Documents a WFM must refuse (400 or 422), each with the one defect that makes it invalid. */
export function invalidCapabilities(): fc.Arbitrary<InvalidCapabilities> {
  const hosting = validCapabilities({ kind: 'hosting' });
  return fc.oneof(
    fc.tuple(validCapabilities(), fc.nat()).map(([doc, pick]) => {
      const mutations = schemaMutations(schemaOf('DeviceCapabilities'), doc);
      const m = mutations[pick % mutations.length]!;
      return { doc: m.document, defect: `${m.kind} ${m.path}` };
    }),
    fc
      .tuple(validCapabilities(), fc.constantFrom(...BAD_IDS))
      .map(([doc, id]) => ({ doc: { ...doc, properties: { ...doc.properties, id } }, defect: `bad id ${JSON.stringify(id)}` })),
    fc.tuple(hosting, fc.constantFrom<QuantityField>('memory', 'storage'), fc.nat()).map(([doc, field, pick]) => {
      const bad = [...BAD_QUANTITIES, ...(field === 'memory' ? ['1 Ti', '2 Pi'] : ['16 Xi'])];
      const value = bad[pick % bad.length]!;
      return { doc: { ...doc, properties: { ...doc.properties, [field]: value } }, defect: `bad ${field} ${JSON.stringify(value)}` };
    }),
    fc.tuple(hosting, fc.constantFrom(...HOSTING_FIELDS)).map(([doc, field]) => {
      const properties: Record<string, unknown> = { ...doc.properties };
      delete properties[field];
      return { doc: { ...doc, properties }, defect: `partial hosting fields: no ${field}` };
    }),
    fc
      .tuple(validCapabilities({ kind: 'identity-only' }), hostingFields('any', false), fc.constantFrom(...HOSTING_FIELDS))
      .map(([doc, h, field]) => ({
        doc: { ...doc, properties: { ...doc.properties, [field]: h[field] } },
        defect: `partial hosting fields: only ${field}`,
      })),
    fc.tuple(hosting, fc.constantFrom('supportedRuntimes', 'supportedDeploymentTypes'), fc.boolean()).map(([doc, field, emptyLabels]) => {
      const { labels: _dropped, ...rest } = doc;
      return {
        doc: { ...rest, properties: { ...doc.properties, [field]: ['custom'] }, ...(emptyLabels ? { labels: {} } : {}) },
        defect: `custom ${field} without labels`,
      };
    }),
    fc.tuple(hosting, fc.constantFrom('otelCollector', 'supportedRuntimes', 'supportedDeploymentTypes')).map(([doc, field]) => ({
      doc: { ...doc, properties: { ...doc.properties, [field]: field === 'otelCollector' ? false : [] } },
      defect: field === 'otelCollector' ? 'hosting device with otelCollector false' : `hosting device with empty ${field}`,
    })),
  );
}

export interface DeviceTree {
  /** Full hierarchical deviceId. */
  id: string;
  children: DeviceTree[];
}

/** A gateway and the devices behind it, sibling ids unique, at most `maxDepth` levels below the root. */
export function deviceHierarchy(opts: { maxDepth?: number; maxChildren?: number } = {}): fc.Arbitrary<DeviceTree> {
  type Shape = { seg: string; kids: Shape[] };
  const shape = (depth: number): fc.Arbitrary<Shape> =>
    fc.record({
      seg: idSegment(),
      kids: depth <= 0 ? fc.constant([]) : fc.uniqueArray(shape(depth - 1), { selector: (s) => s.seg, maxLength: opts.maxChildren ?? 3 }),
    });
  const build = (s: Shape, parent?: string): DeviceTree => {
    const id = parent === undefined ? s.seg : `${parent}/${s.seg}`;
    return { id, children: s.kids.map((k) => build(k, id)) };
  };
  return shape(opts.maxDepth ?? 3).map((s) => build(s));
}

/** Every id of a tree, each gateway before the devices behind it (the order §2.2 rule 3 requires). */
export function hierarchyIds(tree: DeviceTree): string[] {
  return [tree.id, ...tree.children.flatMap(hierarchyIds)];
}

/** The `components` of a status report: unique names, any of the six states, an error on some failed ones. */
export function componentStates(opts: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<ComponentStatus[]> {
  const component = fc
    .record({
      name: name,
      state: fc.constantFrom(...DEPLOYMENT_STATES),
      code: fc.stringMatching(/^[A-Z0-9_]{1,12}$/),
      // Never blank: "" beside a code is a partly empty error (P7, STATUS-ERROR-FIELDS), and a WFM may refuse a blank one.
      message: text.filter((m) => m.trim() !== ''),
      withError: fc.boolean(),
    })
    .map(({ name: n, state, code, message, withError }): ComponentStatus =>
      state === 'failed' && withError ? { name: n, state, error: { code, source: n, message } } : { name: n, state },
    );
  return fc.uniqueArray(component, { selector: (c) => c.name, minLength: opts.minLength ?? 1, maxLength: opts.maxLength ?? 8 });
}
