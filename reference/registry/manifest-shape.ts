// Reading a pushed manifest: JSON, schemaVersion 2, a known manifest or index media type, well-formed
// descriptors. Says what the manifest references; whether those exist is the route's business.
import { OCI_INDEX, OCI_MANIFEST } from '../../spec/media-types.ts';
import { ociError } from './errors.ts';
import { checkDigest } from './grammar.ts';

// Docker's schema2 types are what most push tools still produce for images; they share the OCI shapes.
const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
const DOCKER_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';
export const IMAGE_MANIFEST_TYPES: ReadonlySet<string> = new Set([OCI_MANIFEST, DOCKER_MANIFEST]);
export const INDEX_TYPES: ReadonlySet<string> = new Set([OCI_INDEX, DOCKER_LIST]);

export interface ManifestShape {
  mediaType: string;
  kind: 'manifest' | 'index';
  /** config and layers of an image manifest. */
  blobs: string[];
  /** manifests of an index. */
  manifests: string[];
  subject?: string;
  /** For the referrers API: the manifest's artifactType, else an image manifest's config mediaType. */
  artifactType?: string;
  annotations?: Record<string, string>;
}

type Json = Record<string, unknown>;

function invalid(message: string, detail?: unknown): Error {
  return ociError(400, 'MANIFEST_INVALID', message, detail);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Descriptors may name other algorithms; such content is simply not here, which the existence check reports. */
function isMalformedDigest(digest: string): boolean {
  const check = checkDigest(digest);
  return !check.ok && check.reason === 'invalid';
}

/** A descriptor needs mediaType, a syntactically valid digest (any algorithm) and a non-negative integer size. */
function descriptor(value: unknown, where: string): { mediaType: string; digest: string } {
  if (!isObject(value)) throw invalid(`${where} is not a descriptor`);
  const { mediaType, digest, size } = value;
  if (typeof mediaType !== 'string' || mediaType === '') throw invalid(`${where}.mediaType is missing`);
  if (typeof digest !== 'string' || isMalformedDigest(digest)) {
    throw invalid(`${where}.digest is not a valid digest`, { digest });
  }
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) throw invalid(`${where}.size is not a non-negative integer`);
  return { mediaType, digest };
}

function descriptors(value: unknown, where: string): string[] {
  if (!Array.isArray(value)) throw invalid(`${where} must be an array`);
  return value.map((d, i) => descriptor(d, `${where}[${i}]`).digest);
}

function annotations(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    throw invalid('annotations must map strings to strings');
  }
  return value as Record<string, string>;
}

function parseJson(bytes: Buffer): Json {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw invalid('manifest is not UTF-8 JSON');
  }
  if (!isObject(doc)) throw invalid('manifest is not a JSON object');
  return doc;
}

/**
 * The media type is the `mediaType` field, else the request's Content-Type. When both are present they must
 * agree: the spec says a client "MUST set the Content-Type header to the value specified by the mediaType field".
 */
function effectiveMediaType(doc: Json, contentType: string | undefined): string {
  const field = doc.mediaType;
  if (field !== undefined && typeof field !== 'string') throw invalid('mediaType must be a string');
  if (field !== undefined && contentType !== undefined && field !== contentType) {
    throw invalid('Content-Type does not match the manifest mediaType', { contentType, mediaType: field });
  }
  const type = field ?? contentType;
  if (type === undefined) throw invalid('manifest has no mediaType and the request no Content-Type');
  return type;
}

export function readManifest(bytes: Buffer, contentType: string | undefined): ManifestShape {
  const doc = parseJson(bytes);
  if (doc.schemaVersion !== 2) throw invalid('schemaVersion must be 2', { schemaVersion: doc.schemaVersion });
  const mediaType = effectiveMediaType(doc, contentType);
  const isManifest = IMAGE_MANIFEST_TYPES.has(mediaType);
  if (!isManifest && !INDEX_TYPES.has(mediaType)) throw invalid('unknown manifest media type', { mediaType });
  const artifactType = doc.artifactType;
  if (artifactType !== undefined && typeof artifactType !== 'string') throw invalid('artifactType must be a string');
  const shape: ManifestShape = { mediaType, kind: isManifest ? 'manifest' : 'index', blobs: [], manifests: [] };
  if (isManifest) {
    const config = descriptor(doc.config, 'config');
    shape.blobs = [config.digest, ...descriptors(doc.layers, 'layers')];
    shape.artifactType = artifactType || config.mediaType;
  } else {
    shape.manifests = descriptors(doc.manifests, 'manifests');
    if (artifactType) shape.artifactType = artifactType;
  }
  if (doc.subject !== undefined) shape.subject = descriptor(doc.subject, 'subject').digest;
  const notes = annotations(doc.annotations);
  if (notes) shape.annotations = notes;
  return shape;
}
