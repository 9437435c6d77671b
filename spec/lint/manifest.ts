// §2.7 manifests of a pushed package or compose component: schema by field, annotations, tag and version rules.
import { escapeRegExp, mediaTypes, type MediaTypes } from '../media-types.ts';
import { finding, type Finding } from '../rules/finding.ts';
import { SEMVER_PATTERN } from '../schemas/common.ts';
import { validate } from '../schemas/index.ts';
import type { OciImageManifest } from '../types.ts';
import { isRequired, schemaFindings, type FieldRule } from './schema-findings.ts';

export type ArtifactKind = 'package' | 'compose-component';

/** The container tooling's compose-publish artifact, which §2.7 rule 9 forbids. */
const COMPOSE_PUBLISH = { artifactType: 'application/vnd.docker.compose.project', layer: 'application/vnd.docker.compose.file+yaml' };
const SEMVER = new RegExp(SEMVER_PATTERN);
const OCI = {
  title: 'org.opencontainers.image.title',
  authors: 'org.opencontainers.image.authors',
  description: 'org.opencontainers.image.description',
  version: 'org.opencontainers.image.version',
};

/** Compose when the manifest says so (or is a compose-publish artifact), a package otherwise. */
export function artifactKindOf(manifest: OciImageManifest, mt: MediaTypes): ArtifactKind {
  const types = [manifest.artifactType, ...(manifest.layers ?? []).map((l) => l?.mediaType)];
  return types.some(
    (t) => t === mt.composeArtifact || t === mt.composeLayer || t === COMPOSE_PUBLISH.artifactType || t === COMPOSE_PUBLISH.layer,
  )
    ? 'compose-component'
    : 'package';
}

export function manifestFindings(manifest: unknown, kind: ArtifactKind, vendor: string): Finding[] {
  const name = kind === 'package' ? 'AppPackageManifest' : 'ComposeComponentManifest';
  const schema = validate(name, manifest, { vendor });
  const findings = schema.ok
    ? []
    : schemaFindings(
        schema.errors,
        fieldRules(kind, vendor),
        'layer-descriptor',
        `§2.7 ${kind === 'package' ? 'package' : 'compose component'} manifest`,
      );
  return [
    ...publishFindings(manifest as OciImageManifest),
    ...findings.map((f) => withVendorHint(f, manifest as OciImageManifest, vendor)),
  ];
}

function fieldRules(kind: ArtifactKind, vendor: string): FieldRule[] {
  const v = escapeRegExp(vendor);
  const common: FieldRule[] = [
    [/^\/$/, 'manifest-json'],
    [/^\/schemaVersion$/, 'manifest-schema-version'],
    [/^\/mediaType$/, 'manifest-media-type'],
  ];
  if (kind === 'package') {
    return [
      ...common,
      [/^\/artifactType$/, 'package-artifact-type'],
      [/^\/config/, 'config-empty'],
      [/^\/layers$/, (e) => (/contain/.test(e.message) ? 'description-present' : 'layer-descriptor')],
      [/^\/layers\/\d+\/annotations(\/org\.opencontainers\.image\.title)?$/, 'layer-title'],
      [new RegExp(`^/layers/\\d+/annotations/org\\.${v}\\.app\\.resource$`), 'resource-annotation'],
      [/^\/layers\/\d+\/mediaType$/, 'package-layer-media-type'],
    ];
  }
  return [
    ...common,
    [/^\/artifactType$/, 'compose-artifact-type'],
    [/^\/layers$/, (e) => (/fewer|more|must NOT have/.test(e.message) ? 'compose-one-layer' : 'layer-descriptor')],
    [/^\/layers\/\d+\/mediaType$/, 'compose-layer-media-type'],
    [/^\/layers\/\d+\/annotations$/, 'compose-annotations-on-layer'],
    [
      new RegExp(`^/layers/\\d+/annotations/org\\.${v}\\.component\\.type$`),
      (e) => (isRequired(e) ? 'compose-annotations-on-layer' : 'compose-annot-type'),
    ],
    [
      new RegExp(`^/layers/\\d+/annotations/org\\.${v}\\.component\\.version$`),
      (e) => (isRequired(e) ? 'compose-annotations-on-layer' : 'compose-annot-version'),
    ],
  ];
}

/** §2.7 compose layer annotations beyond the schema: the RECOMMENDED ones, image.version equality, and the tag. */
export function composeAnnotationFindings(manifest: OciImageManifest, vendor: string, tag: string | undefined): Finding[] {
  const mt = mediaTypes(vendor);
  const annotations = manifest.layers?.[0]?.annotations ?? {};
  const at = '/layers/0/annotations';
  const out: Finding[] = [];
  const recommended = [
    ['compose-annot-title', OCI.title, 'a human-readable component name'],
    ['compose-annot-authors', OCI.authors, 'the author or organization'],
    ['compose-annot-description', OCI.description, 'a short description'],
    ['compose-annot-oci-version', OCI.version, 'the component version'],
  ] as const;
  for (const [rule, key, what] of recommended) {
    if (annotations[key] === undefined) out.push(finding(rule, `§2.7: the compose layer SHOULD carry ${key} (${what})`, `${at}/${key}`));
  }
  const version = annotations[mt.annotation.componentVersion];
  if (annotations[OCI.version] !== undefined && version !== undefined && annotations[OCI.version] !== version) {
    out.push(
      finding(
        'compose-oci-version-equal',
        `§2.7: ${OCI.version} ${JSON.stringify(annotations[OCI.version])} differs from ${mt.annotation.componentVersion} ${JSON.stringify(version)}`,
        `${at}/${OCI.version}`,
      ),
    );
  }
  if (tag !== undefined) {
    if (!SEMVER.test(tag))
      out.push(finding('compose-tag-semver', `§9: compose component tag ${JSON.stringify(tag)} is not SemVer 2.0 without a leading v`));
    if (version !== undefined && version !== tag)
      out.push(
        finding(
          'compose-version-matches-tag',
          `§2.7: ${mt.annotation.componentVersion} ${JSON.stringify(version)} does not match the tag ${JSON.stringify(tag)}`,
          `${at}/${mt.annotation.componentVersion}`,
        ),
      );
  }
  return out;
}

function publishFindings(manifest: OciImageManifest): Finding[] {
  const layers = Array.isArray(manifest?.layers) ? manifest.layers : [];
  if (manifest?.artifactType !== COMPOSE_PUBLISH.artifactType && !layers.some((l) => l?.mediaType === COMPOSE_PUBLISH.layer)) return [];
  return [
    finding(
      'compose-publish-artifact',
      `§2.7 rule 9: this is the container tooling's compose-publish artifact (${COMPOSE_PUBLISH.artifactType}, one layer per file), which MUST NOT be used`,
      '/artifactType',
    ),
  ];
}

/** An artifactType built with another vendor token (P1) most likely means the wrong --vendor. */
function withVendorHint(f: Finding, manifest: OciImageManifest, vendor: string): Finding {
  const m = /^application\/vnd\.(?:org\.)?([a-z0-9-]+)\.(?:app\.v1\+json|component\.compose\+json)$/.exec(manifest?.artifactType ?? '');
  if (f.path !== '/artifactType' || !m || m[1] === vendor) return f;
  return { ...f, message: `${f.message} (the manifest uses vendor token ${JSON.stringify(m[1])}; lint with --vendor ${m[1]}, profile P1)` };
}
