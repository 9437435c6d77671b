// §2.7 application description (the package's YAML layer): schema, version as an OCI tag, component references.
import { parseDocument } from 'yaml';
import { RESOURCE_KINDS, type ResourceKind } from '../media-types.ts';
import { finding, type Finding } from '../rules/finding.ts';
import { OCI_TAG_PATTERN, SEMVER_PATTERN } from '../schemas/common.ts';
import { validate } from '../schemas/index.ts';
import { schemaFindings, type FieldRule } from './schema-findings.ts';

export interface Description {
  metadata: { name: string; version: string; catalog?: { application?: Partial<Record<ResourceKind, string>> } };
  [key: string]: unknown;
}

const FIELD_RULES: readonly FieldRule[] = [
  [/^\/metadata\/version$/, 'version-present'],
  [/^\/metadata\/catalog/, 'resource-listed-path'],
];
const TAG = new RegExp(OCI_TAG_PATTERN);
const SEMVER = new RegExp(SEMVER_PATTERN);

/** Findings on the description text; `doc` when it is a valid description (resource checks need it). */
export function descriptionFindings(text: string): { findings: Finding[]; doc?: Description } {
  const parsed = parseDocument(text, { prettyErrors: false });
  if (parsed.errors.length > 0)
    return {
      findings: [
        finding('description-yaml', `§2.7: the application description is not valid YAML (${parsed.errors[0]!.message.split('\n')[0]})`),
      ],
    };
  let value: unknown;
  try {
    value = parsed.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return { findings: [finding('description-yaml', `§2.7: the application description cannot be read (${(e as Error).message})`)] };
  }
  const schema = validate('ApplicationDescription', value);
  if (!schema.ok) return { findings: schemaFindings(schema.errors, FIELD_RULES, 'description-schema', '§2.7 application description') };
  const doc = value as Description;
  const findings: Finding[] = [];
  if (!TAG.test(doc.metadata.version)) {
    findings.push(
      finding(
        'version-oci-tag',
        `§9: metadata.version ${JSON.stringify(doc.metadata.version)} is the package's OCI tag, and is not a valid one (${OCI_TAG_PATTERN})`,
        '/metadata/version',
      ),
    );
  }
  findings.push(...componentFindings(doc));
  return { findings, doc };
}

/** The resource files the description lists, by kind (§2.7: under metadata.catalog.application). */
export function listedResources(doc: Description): [ResourceKind, string][] {
  const app = doc.metadata.catalog?.application ?? {};
  return RESOURCE_KINDS.flatMap((kind) => (typeof app[kind] === 'string' ? [[kind, app[kind]!] as [ResourceKind, string]] : []));
}

/** §2.7: components[].properties.repository is an oci:// URI and .revision an OCI tag matching SemVer 2.0. */
function componentFindings(doc: Description): Finding[] {
  const out: Finding[] = [];
  for (const { component, at } of componentsOf(doc)) {
    const props = isObject(component.properties) ? component.properties : undefined;
    if (props?.repository !== undefined && !(typeof props.repository === 'string' && /^oci:\/\/[^/\s]+\/\S+$/.test(props.repository))) {
      out.push(
        finding(
          'component-repository-oci',
          `§2.7: components[].properties.repository ${JSON.stringify(props.repository)} is not an oci:// URI`,
          `${at}/properties/repository`,
        ),
      );
    }
    if (props?.revision !== undefined && !(typeof props.revision === 'string' && TAG.test(props.revision) && SEMVER.test(props.revision))) {
      out.push(
        finding(
          'component-revision-semver',
          `§2.7: components[].properties.revision ${JSON.stringify(props.revision)} is not an OCI tag matching SemVer 2.0 (no leading v)`,
          `${at}/properties/revision`,
        ),
      );
    }
  }
  return out;
}

/** Components where descriptions put them: at the root, under deploymentProfiles[] (the standard), or spec.deploymentProfile. */
function componentsOf(doc: Description): { component: Record<string, unknown>; at: string }[] {
  const lists: [unknown, string][] = [[doc.components, '/components']];
  if (Array.isArray(doc.deploymentProfiles))
    doc.deploymentProfiles.forEach((p, i) => isObject(p) && lists.push([p.components, `/deploymentProfiles/${i}/components`]));
  const spec = doc.spec;
  if (isObject(spec) && isObject(spec.deploymentProfile))
    lists.push([spec.deploymentProfile.components, '/spec/deploymentProfile/components']);
  return lists.flatMap(([list, at]) =>
    Array.isArray(list) ? list.flatMap((c, i) => (isObject(c) ? [{ component: c, at: `${at}/${i}` }] : [])) : [],
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
