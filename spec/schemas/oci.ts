// OCI image manifest and descriptor, and the §2.7 package and compose component manifests and tag list.
import { OCI_EMPTY_DESCRIPTOR, OCI_MANIFEST, escapeRegExp, mediaTypes } from '../media-types.ts';
import {
  BASE64_PATTERN,
  DIGEST_PATTERN,
  DRAFT,
  MEDIA_TYPE_PATTERN,
  OCI_REPOSITORY_PATTERN,
  OCI_TAG_PATTERN,
  SEMVER_PATTERN,
  stringMap,
  type JsonSchema,
} from './common.ts';

/** OCI image-spec descriptor. */
export const ociDescriptorSchema: JsonSchema = {
  type: 'object',
  required: ['mediaType', 'digest', 'size'],
  properties: {
    mediaType: { type: 'string', pattern: MEDIA_TYPE_PATTERN },
    digest: { type: 'string', pattern: DIGEST_PATTERN },
    size: { type: 'integer', minimum: 0 },
    urls: { type: 'array', items: { type: 'string', format: 'uri' } },
    annotations: stringMap,
    data: { type: 'string', pattern: BASE64_PATTERN },
    artifactType: { type: 'string', pattern: MEDIA_TYPE_PATTERN },
  },
};

/** Descriptor with `annotations` required and holding the given keys. */
function annotatedDescriptor(mediaType: JsonSchema, annotations: JsonSchema, required: string[]): JsonSchema {
  const base = ociDescriptorSchema.properties as JsonSchema;
  return {
    ...ociDescriptorSchema,
    required: ['mediaType', 'digest', 'size', 'annotations'],
    properties: { ...base, mediaType, annotations: { ...stringMap, required, properties: annotations } },
  };
}

/** OCI image manifest in general (image-spec v1.1). */
export const ociImageManifestSchema: JsonSchema = {
  $schema: DRAFT,
  title: 'OciImageManifest',
  type: 'object',
  required: ['schemaVersion', 'config', 'layers'],
  properties: {
    schemaVersion: { const: 2 },
    // Optional in the image-spec ("SHOULD be used"); required in the §2.7 manifests below.
    mediaType: { const: OCI_MANIFEST },
    artifactType: { type: 'string', pattern: MEDIA_TYPE_PATTERN },
    config: ociDescriptorSchema,
    layers: { type: 'array', items: ociDescriptorSchema },
    subject: ociDescriptorSchema,
    annotations: stringMap,
  },
};

/** The OCI empty descriptor: `{}` (2 bytes); `data`, if inlined, is those bytes. */
const emptyConfig: JsonSchema = {
  type: 'object',
  required: ['mediaType', 'digest', 'size'],
  properties: {
    mediaType: { const: OCI_EMPTY_DESCRIPTOR.mediaType },
    digest: { const: OCI_EMPTY_DESCRIPTOR.digest },
    size: { const: OCI_EMPTY_DESCRIPTOR.size },
    data: { const: OCI_EMPTY_DESCRIPTOR.data },
  },
};

function manifestOf(title: string, artifactType: string, config: JsonSchema, layers: JsonSchema): JsonSchema {
  const base = ociImageManifestSchema.properties as JsonSchema;
  return {
    ...ociImageManifestSchema,
    title,
    required: ['schemaVersion', 'mediaType', 'artifactType', 'config', 'layers'],
    properties: { ...base, artifactType: { const: artifactType }, config, layers },
  };
}

/** §2.7 application package manifest for a vendor token (P1). */
export function appPackageManifestSchema(vendor: string): JsonSchema {
  const mt = mediaTypes(vendor);
  const resourceType = `^application/vnd\\.${escapeRegExp(vendor)}\\.app\\.(icon|descriptionFile|licenseFile|releaseNotes)\\.v1\\+.+$`;
  const resource = mt.annotation.resource;
  const title = { 'org.opencontainers.image.title': { type: 'string' } };
  // A package's parts are its description and its resource files, nothing else (§2.7).
  const layer = annotatedDescriptor({ type: 'string', anyOf: [{ const: mt.appDescription }, { pattern: resourceType }] }, title, [
    'org.opencontainers.image.title',
  ]);
  const resourceLayer: JsonSchema = {
    if: { type: 'object', properties: { mediaType: { type: 'string', pattern: resourceType } }, required: ['mediaType'] },
    then: {
      type: 'object',
      properties: { annotations: { type: 'object', required: [resource], properties: { [resource]: { type: 'string' } } } },
    },
  };
  return manifestOf('AppPackageManifest', mt.appArtifact, emptyConfig, {
    type: 'array',
    items: { ...layer, ...resourceLayer },
    // Exactly one layer is the application description.
    contains: { type: 'object', properties: { mediaType: { const: mt.appDescription } }, required: ['mediaType'] },
    minContains: 1,
    maxContains: 1,
  });
}

/** §2.7 compose component manifest for a vendor token (P1): one layer, the compose archive. */
export function composeComponentManifestSchema(vendor: string): JsonSchema {
  const mt = mediaTypes(vendor);
  const layer = annotatedDescriptor(
    { const: mt.composeLayer },
    {
      [mt.annotation.componentType]: { const: 'compose' },
      // Equality with the OCI tag, revision and image.version is a rule: JSON Schema cannot compare values.
      [mt.annotation.componentVersion]: { type: 'string', pattern: SEMVER_PATTERN },
    },
    [mt.annotation.componentType, mt.annotation.componentVersion],
  );
  // The config is not fixed by §2.7, so any descriptor is accepted there.
  return manifestOf('ComposeComponentManifest', mt.composeArtifact, ociDescriptorSchema, {
    type: 'array',
    items: layer,
    minItems: 1,
    maxItems: 1,
  });
}

/** §2.7/§4.7 tag list document (OCI content discovery). */
export const tagListSchema: JsonSchema = {
  $schema: DRAFT,
  title: 'TagList',
  type: 'object',
  required: ['name', 'tags'],
  properties: {
    name: { type: 'string', pattern: OCI_REPOSITORY_PATTERN },
    tags: { type: 'array', items: { type: 'string', pattern: OCI_TAG_PATTERN } },
  },
};
