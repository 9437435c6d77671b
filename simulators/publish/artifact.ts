// What both builders produce: the blobs of an OCI artifact and its image manifest (interfaces.md §2.7), as bytes.
import { OCI_EMPTY_DESCRIPTOR, OCI_MANIFEST } from '../../spec/media-types.ts';
import { digestOf } from '../../spec/rules/desired-state.ts';
import { formatSchemaErrors, validate, type SchemaName } from '../../spec/schemas/index.ts';
import type { Finding } from '../../spec/rules/finding.ts';

export interface ArtifactBlob {
  digest: string;
  bytes: Uint8Array;
  mediaType: string;
  annotations?: Record<string, string>;
}

export interface BuiltArtifact {
  /** The OCI tag the manifest is pushed under. */
  tag: string;
  /** The config blob first, then one entry per layer in manifest order. */
  blobs: ArtifactBlob[];
  /** The exact manifest bytes pushed, so the digest below is theirs. */
  manifest: Uint8Array;
  manifestDigest: string;
}

export type PublishErrorCode =
  | 'WFMCK_E_PUBLISH_FOLDER'
  | 'WFMCK_E_PUBLISH_DESCRIPTION'
  | 'WFMCK_E_PUBLISH_VERSION'
  | 'WFMCK_E_PUBLISH_COMPOSE'
  | 'WFMCK_E_PUBLISH_MANIFEST'
  | 'WFMCK_E_PUBLISH_PUSH';

/** A package the kit refuses to build or push, with the rule findings that say why when there are some. */
export class PublishError extends Error {
  constructor(
    readonly code: PublishErrorCode,
    message: string,
    readonly findings: Finding[] = [],
  ) {
    super(
      findings.length
        ? `${message}\n${findings.map((f) => `  - ${f.rule}: ${f.message}${f.path ? ` (${f.path})` : ''}`).join('\n')}`
        : message,
    );
    this.name = 'PublishError';
  }
}

/** The two bytes `{}` of the OCI empty descriptor, pushed as the config blob. */
export const EMPTY_CONFIG_BLOB: ArtifactBlob = {
  digest: OCI_EMPTY_DESCRIPTOR.digest,
  bytes: new TextEncoder().encode('{}'),
  mediaType: OCI_EMPTY_DESCRIPTOR.mediaType,
};

export function blobOf(bytes: Uint8Array, mediaType: string, annotations?: Record<string, string>): ArtifactBlob {
  return { digest: digestOf(bytes), bytes, mediaType, ...(annotations ? { annotations } : {}) };
}

/**
 * An image manifest with the empty config and `layers`, checked against `schema` before anything is pushed.
 * Keys are written in one fixed order so the same inputs give the same manifest digest.
 */
export function buildManifest(opts: {
  tag: string;
  artifactType: string;
  layers: ArtifactBlob[];
  schema: SchemaName;
  vendor: string;
}): BuiltArtifact {
  const manifest = {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType: opts.artifactType,
    config: { mediaType: OCI_EMPTY_DESCRIPTOR.mediaType, digest: OCI_EMPTY_DESCRIPTOR.digest, size: OCI_EMPTY_DESCRIPTOR.size },
    layers: opts.layers.map((l) => ({
      mediaType: l.mediaType,
      digest: l.digest,
      size: l.bytes.byteLength,
      ...(l.annotations ? { annotations: l.annotations } : {}),
    })),
  };
  const verdict = validate(opts.schema, manifest, { vendor: opts.vendor });
  if (!verdict.ok) {
    throw new PublishError(
      'WFMCK_E_PUBLISH_MANIFEST',
      `the built manifest fails the ${opts.schema} schema (a kit bug):\n${formatSchemaErrors(verdict.errors)}`,
    );
  }
  const bytes = new TextEncoder().encode(JSON.stringify(manifest));
  return { tag: opts.tag, blobs: [EMPTY_CONFIG_BLOB, ...opts.layers], manifest: bytes, manifestDigest: digestOf(bytes) };
}
