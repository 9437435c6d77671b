// `wfmck lint` of a DeviceCapabilities document (§2.1, §2.1.1, §2.2): schema by field, semantic rules, SHOULDs.
import { SUPPORTED_DEPLOYMENT_TYPES, SUPPORTED_RUNTIMES, type DeviceCapabilities } from '../types.ts';
import { classifyDocument, closedRootFindings, extensionKeys, hostingFieldsOf, semanticFindings } from '../rules/capabilities.ts';
import { finding, type Finding } from '../rules/finding.ts';
import { validate } from '../schemas/index.ts';
import { located, type Located } from './findings.ts';
import { LintInputError, type LintResult } from './input.ts';
import { isRequired, schemaFindings, type FieldRule } from './schema-findings.ts';

const P = '^/properties';
const FIELD_RULES: readonly FieldRule[] = [
  [/^\/$/, 'capabilities-schema'],
  [/^\/properties$/, 'properties-required'],
  [new RegExp(`${P}/id$`), (e) => (isRequired(e) || /must be string/.test(e.message) ? 'identity-fields' : 'device-id-syntax')],
  [new RegExp(`${P}/(vendor|modelNumber|serialNumber)$`), 'identity-fields'],
  [new RegExp(`${P}/cpus/\\d+/cores$`), 'cpu-cores'],
  [new RegExp(`${P}/cpus/\\d+/architecture$`), 'cpu-architecture'],
  [new RegExp(`${P}/peripherals/\\d+/type$`), (e) => (isRequired(e) ? 'peripheral-type-required' : 'peripheral-type-value')],
  [new RegExp(`${P}/interfaces/\\d+/type$`), (e) => (isRequired(e) ? 'interface-type-required' : 'interface-type-value')],
  [new RegExp(`${P}/memory$`), 'memory-quantity'],
  [new RegExp(`${P}/storage$`), 'storage-quantity'],
  [new RegExp(`${P}/.+`), (e) => (e.message === 'is not allowed' ? 'unknown-field' : 'hosting-field-type')],
  [/^\/labels/, 'label-value-type'],
  [/^\/x-/, 'extension-object'],
];

/** A Kubernetes-style `example.com/key` label: a DNS name with a dot, then `/`. */
const DOMAIN_PREFIX = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+\/./;

/** `edition` (P10): miaf reads the Y* fields as each optional (hostingFieldsOf) and closes the root. */
export function lintCapabilities(text: string, file: string, edition: 'seed' | 'miaf' = 'seed'): LintResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new LintInputError(`${file} is not JSON: ${(e as Error).message}`);
  }
  const schema = validate('DeviceCapabilities', doc);
  if (!schema.ok)
    return {
      kind: 'capabilities',
      findings: located(schemaFindings(schema.errors, FIELD_RULES, 'capabilities-schema', '§2.1 DeviceCapabilities'), file),
      notes: [],
    };
  const caps = doc as DeviceCapabilities;
  const findings: Located[] = located(
    [
      ...semanticFindings(caps, { hostingFields: hostingFieldsOf(edition) }),
      ...valueFindings(caps),
      ...labelFindings(caps),
      ...(edition === 'miaf' ? closedRootFindings(caps) : []),
    ],
    file,
    (f) => (f.rule === 'quantity-format' && f.path?.endsWith('storage') ? 'storage' : undefined),
  );
  return { kind: 'capabilities', findings, notes: notesOf(caps) };
}

/** §2.1.1 enumerations the schema leaves open because the WFM defaults unknown values to custom (catalog: ambiguous). */
function valueFindings(doc: DeviceCapabilities): Finding[] {
  const lists = [
    ['supportedRuntimes', 'runtime-value-known', SUPPORTED_RUNTIMES, doc.properties.supportedRuntimes],
    ['supportedDeploymentTypes', 'deployment-type-value-known', SUPPORTED_DEPLOYMENT_TYPES, doc.properties.supportedDeploymentTypes],
  ] as const;
  return lists.flatMap(([field, rule, known, values]) =>
    (values ?? []).flatMap((v, i) =>
      (known as readonly string[]).includes(v)
        ? []
        : [
            finding(
              rule,
              `§2.1.1: ${field} value ${JSON.stringify(v)} is not one of ${known.join(', ')}; a WFM reads it as custom`,
              `/properties/${field}/${i}`,
            ),
          ],
    ),
  );
}

/** §2.1: label keys SHOULD carry an organization domain prefix. */
function labelFindings(doc: DeviceCapabilities): Finding[] {
  return Object.keys(doc.labels ?? {})
    .filter((k) => !DOMAIN_PREFIX.test(k))
    .map((k) =>
      finding(
        'label-domain-prefix',
        `§2.1: label key ${JSON.stringify(k)} has no organization domain prefix (e.g. example.com/${k})`,
        `/labels/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      ),
    );
}

function notesOf(doc: DeviceCapabilities): string[] {
  const props = doc.properties;
  const kind = classifyDocument(props);
  const notes = [
    kind === 'hosting'
      ? 'a workload-hosting device: every Y* field is present (§2.1.1)'
      : kind === 'identity-only'
        ? 'identity fields only: read as a see-thru gateway that hosts no workloads (§2.2)'
        : 'some Y* fields but not all: neither a hosting device nor an identity-only gateway (§2.2)',
  ];
  const parts = props.id.split('/');
  if (parts.length > 1)
    notes.push(`a device behind gateway ${parts.slice(0, -1).join('/')} (§2.2: the gateway's own document comes first)`);
  const ext = extensionKeys(doc);
  if (ext.length > 0) notes.push(`vendor extensions ${ext.join(', ')}: a WFM ignores them (§2.1)`);
  return notes;
}
