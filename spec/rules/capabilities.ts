// §2.1, §2.1.1, §2.2: what makes a DeviceCapabilities document semantically wrong beyond its JSON schema (422).

import {
  SUPPORTED_DEPLOYMENT_TYPES,
  SUPPORTED_RUNTIMES,
  type DeviceCapabilities,
  type Properties,
  type SupportedDeploymentType,
  type SupportedRuntime,
} from '../types.ts';
import { parseDeviceId } from './device-id.ts';
import { finding, type Finding } from './finding.ts';
import { parseQuantity, type QuantityField } from './quantity.ts';

/** The `Y*` fields of §2.1.1: all present on a hosting device, all absent on a non-hosting see-thru gateway. */
export const HOSTING_FIELDS = [
  'cpus',
  'memory',
  'storage',
  'peripherals',
  'interfaces',
  'otelCollector',
  'supportedRuntimes',
  'supportedDeploymentTypes',
] as const satisfies readonly (keyof Properties)[];

export type DocumentKind = 'hosting' | 'identity-only' | 'partial';

export function classifyDocument(props: Properties): DocumentKind {
  const present = HOSTING_FIELDS.filter((f) => props[f] !== undefined).length;
  if (present === HOSTING_FIELDS.length) return 'hosting';
  return present === 0 ? 'identity-only' : 'partial';
}

function normalize<T extends string>(known: readonly T[], values: readonly string[]): T[] {
  const mapped = values.map((v) => ((known as readonly string[]).includes(v) ? (v as T) : ('custom' as T)));
  return [...new Set(mapped)];
}

/** §2.1.1: an unknown runtime defaults to `custom`; matching is exact and case-sensitive ("OCI" is unknown). */
export function normalizeRuntimes(values: readonly string[]): SupportedRuntime[] {
  return normalize(SUPPORTED_RUNTIMES, values);
}

/** §2.1.1: an unknown deployment type defaults to `custom` (so `helm.v3` becomes `custom`, see P10 errata). */
export function normalizeDeploymentTypes(values: readonly string[]): SupportedDeploymentType[] {
  return normalize(SUPPORTED_DEPLOYMENT_TYPES, values);
}

export interface SemanticContext {
  /** P8: which quantity forms to accept; `both` by default. */
  quantityFormats?: 'both' | 'spaced' | 'compact';
  /**
   * §2.1.1/§2.2 (seed): the Y* fields come all or none; P10 (miaf): properties requires only the identity fields, so a
   * document with some of them (only cpus, say) is valid (errata of MIAF-CAP-PROPS-REQUIRED).
   */
  hostingFields?: 'all-or-none' | 'any';
}

/** The hosting-field reading of an edition (P10). */
export function hostingFieldsOf(edition: 'seed' | 'miaf'): SemanticContext['hostingFields'] {
  return edition === 'miaf' ? 'any' : 'all-or-none';
}

export function semanticFindings(doc: DeviceCapabilities, ctx: SemanticContext = {}): Finding[] {
  const props = doc.properties;
  return [
    ...idFindings(props),
    ...kindFindings(props, ctx.hostingFields ?? 'all-or-none'),
    ...customLabelFindings(doc),
    ...quantityFindings(props, 'memory', ctx.quantityFormats ?? 'both'),
    ...quantityFindings(props, 'storage', ctx.quantityFormats ?? 'both'),
    ...coreFindings(props),
  ];
}

function idFindings(props: Properties): Finding[] {
  const parsed = parseDeviceId(props.id);
  return parsed.ok ? [] : [finding('device-id-syntax', `§2.1.1 id: ${parsed.reason}`, '/properties/id')];
}

function kindFindings(props: Properties, hostingFields: 'all-or-none' | 'any'): Finding[] {
  const kind = classifyDocument(props);
  if (kind === 'partial' && hostingFields === 'any') return [];
  if (kind === 'partial') {
    const missing = HOSTING_FIELDS.filter((f) => props[f] === undefined);
    return [
      finding(
        'hosting-fields-partial',
        `§2.2: the document has some Y* fields but lacks ${missing.join(', ')}; a see-thru gateway omits all of them, a hosting device reports all`,
        '/properties',
      ),
    ];
  }
  if (kind !== 'hosting') return [];
  const out: Finding[] = [];
  if (props.otelCollector !== true)
    out.push(
      finding('otel-collector-required', '§2.1.1: a workload-hosting device MUST report otelCollector true', '/properties/otelCollector'),
    );
  if (props.supportedRuntimes?.length === 0)
    out.push(
      finding(
        'runtimes-required',
        '§2.1.1: a workload-hosting device MUST report at least one supportedRuntimes entry',
        '/properties/supportedRuntimes',
      ),
    );
  if (props.supportedDeploymentTypes?.length === 0)
    out.push(
      finding(
        'deployment-types-required',
        '§2.1.1: a workload-hosting device MUST report at least one supportedDeploymentTypes entry',
        '/properties/supportedDeploymentTypes',
      ),
    );
  return out;
}

/**
 * §2.1.1: `custom` needs at least one label. A value the WFM defaults to `custom` counts too (the device ends up
 * `custom` with nothing to match on), but under its own rule name because the text only says "may report custom".
 */
function customLabelFindings(doc: DeviceCapabilities): Finding[] {
  if (Object.keys(doc.labels ?? {}).length > 0) return [];
  const out: Finding[] = [];
  const lists = [
    ['supportedRuntimes', doc.properties.supportedRuntimes ?? [], SUPPORTED_RUNTIMES],
    ['supportedDeploymentTypes', doc.properties.supportedDeploymentTypes ?? [], SUPPORTED_DEPLOYMENT_TYPES],
  ] as const;
  for (const [field, values, known] of lists) {
    const unknown = values.filter((v) => !(known as readonly string[]).includes(v));
    if (values.includes('custom')) {
      out.push(finding('custom-needs-labels', `§2.1.1: ${field} has "custom" but the document has no labels`, `/properties/${field}`));
    } else if (unknown.length > 0) {
      out.push(
        finding(
          'defaulted-custom-needs-labels',
          `§2.1.1: ${field} has unknown ${unknown.map((v) => `"${v}"`).join(', ')}, which defaults to "custom", but the document has no labels`,
          `/properties/${field}`,
        ),
      );
    }
  }
  return out;
}

function quantityFindings(props: Properties, field: QuantityField, formats: 'both' | 'spaced' | 'compact'): Finding[] {
  const text = props[field];
  if (text === undefined) return [];
  const parsed = parseQuantity(text, field);
  if (!parsed.ok) return [finding(`${field}-quantity`, parsed.reason, `/properties/${field}`)];
  if (formats === 'spaced' && !parsed.spaced)
    return [
      finding(
        'quantity-format',
        `§2.1.1: ${field} "${text}" lacks the space of "<amount> <unit>" (P8 profile: spaced only)`,
        `/properties/${field}`,
      ),
    ];
  if (formats === 'compact' && parsed.spaced)
    return [
      finding(
        'quantity-format',
        `P8: ${field} "${text}" has a space, but the profile accepts only the compact form`,
        `/properties/${field}`,
      ),
    ];
  return [];
}

function coreFindings(props: Properties): Finding[] {
  return (props.cpus ?? []).flatMap((cpu, i) =>
    cpu.cores > 0
      ? []
      : [
          finding(
            'cpu-cores-positive',
            `§2.1.1: cpus[${i}].cores is ${cpu.cores}; an entry must offer more than 0 cores`,
            `/properties/cpus/${i}/cores`,
          ),
        ],
  );
}

/** §4.1: the body's properties.id must name the device of the path (the path id already percent-decoded). */
export function idMatchesPath(doc: DeviceCapabilities, pathDeviceId: string): Finding[] {
  const id = doc.properties.id;
  if (id === pathDeviceId) return [];
  return [
    finding(
      'id-matches-path',
      `§4.1: properties.id "${id}" differs from the path deviceId "${pathDeviceId}"; one request registers one device`,
      '/properties/id',
    ),
  ];
}

/** P10 (rc.3 schema): the root keys a miaf document may have; anything else (apiVersion, kind, x-Acme-extensions) breaks it. */
const MIAF_ROOT_KEY = /^(properties|labels|x-[a-z][a-z0-9-]*-extensions)$/;

/** P10 (MIAF-CLIENT-CAP-ROOT-CLOSED): each root key the closed miaf schema has no place for. */
export function closedRootFindings(doc: object): Finding[] {
  return Object.keys(doc)
    .filter((k) => !MIAF_ROOT_KEY.test(k))
    .map((k) =>
      finding(
        'miaf-root-closed',
        `P10: the miaf capabilities root is closed (properties, labels, x-<name>-extensions); ${JSON.stringify(k)} is not one of them`,
        `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      ),
    );
}

/** §2.1: the `x-<unique-name>-extensions` keys at the document root (the WFM ignores them). */
export function extensionKeys(doc: DeviceCapabilities): string[] {
  return Object.keys(doc).filter((k) => /^x-.+-extensions$/.test(k));
}
