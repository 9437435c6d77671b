// Manifests: GET/HEAD/PUT/DELETE /v2/<name>/manifests/<reference> (end-3, end-7, end-9); reference is a tag or a digest.
import { ociError, type OciErrorEntry, RegistryError } from './errors.ts';
import { isValidTag, looksLikeDigest, sha256Digest } from './grammar.ts';
import { header, mediaTypeOf } from './http.ts';
import { readManifest, type ManifestShape } from './manifest-shape.ts';
import { manifestLocation, requestDigest, requireRepository, unsupportedAlgorithm, type Route } from './context.ts';
import type { ManifestRecord, RegistryStore } from './store.ts';

type Reference = { kind: 'digest'; digest: string } | { kind: 'tag'; tag: string };

const manifestUnknown = (reference: string): Error => ociError(404, 'MANIFEST_UNKNOWN', 'manifest unknown to registry', { reference });

/**
 * A reference on a read or delete. A malformed digest is a bad request (400 DIGEST_INVALID); a string that is
 * neither a tag nor a sha256 digest cannot name anything stored here, so it is simply unknown (404).
 */
function readReference(reference: string): Reference {
  if (looksLikeDigest(reference)) return { kind: 'digest', digest: requestDigest(reference, () => manifestUnknown(reference)) };
  if (!isValidTag(reference)) throw manifestUnknown(reference);
  return { kind: 'tag', tag: reference };
}

/** A reference on a push: an invalid tag is MANIFEST_INVALID (TAG_INVALID is a legacy code outside the spec's list). */
function pushReference(reference: string): Reference {
  if (looksLikeDigest(reference)) return { kind: 'digest', digest: requestDigest(reference, () => unsupportedAlgorithm(reference)) };
  if (!isValidTag(reference)) throw ociError(400, 'MANIFEST_INVALID', 'invalid tag', { tag: reference });
  return { kind: 'tag', tag: reference };
}

function lookup(store: RegistryStore, name: string, ref: Reference): ManifestRecord | undefined {
  return ref.kind === 'digest' ? store.manifestByDigest(name, ref.digest) : store.manifestByTag(name, ref.tag);
}

export const getManifest: Route = ({ store, decisions }, req) => {
  const ref = readReference(req.param);
  requireRepository(store, req.name);
  const record = lookup(store, req.name, ref);
  if (!record || !decisions.serveManifest(header(req.headers, 'accept'), record.mediaType)) throw manifestUnknown(req.param);
  return {
    status: 200,
    headers: { 'Content-Type': record.mediaType, 'Docker-Content-Digest': record.digest },
    body: record.bytes,
  };
};

/** Every descriptor but `subject` must name content in this repository (spec "Push": MANIFEST_BLOB_UNKNOWN). */
export function missingReferences(store: RegistryStore, name: string, shape: ManifestShape): OciErrorEntry[] {
  const missingBlobs = shape.blobs.filter((d) => !store.hasBlob(name, d));
  const missingManifests = shape.manifests.filter((d) => !store.manifestByDigest(name, d));
  return [...new Set([...missingBlobs, ...missingManifests])].map((digest) => ({
    code: 'MANIFEST_BLOB_UNKNOWN',
    message: 'manifest references a manifest or blob unknown to registry',
    detail: { digest },
  }));
}

function toRecord(digest: string, bytes: Buffer, shape: ManifestShape): ManifestRecord {
  const record: ManifestRecord = { digest, bytes, mediaType: shape.mediaType };
  if (shape.subject) record.subject = shape.subject;
  if (shape.artifactType) record.artifactType = shape.artifactType;
  if (shape.annotations) record.annotations = shape.annotations;
  return record;
}

export const putManifest: Route = async ({ store, limits, decisions }, req) => {
  const ref = pushReference(req.param);
  const bytes = await req.readBody(limits.maxManifestBytes, () =>
    ociError(413, 'MANIFEST_INVALID', 'manifest exceeds the registry size limit', { limit: limits.maxManifestBytes }),
  );
  const shape = readManifest(bytes, mediaTypeOf(header(req.headers, 'content-type')));
  const digest = sha256Digest(bytes);
  if (ref.kind === 'digest' && ref.digest !== digest) {
    throw ociError(400, 'DIGEST_INVALID', 'provided digest did not match uploaded content', { reference: ref.digest, digest });
  }
  const missing = missingReferences(store, req.name, shape);
  if (missing.length > 0) throw new RegistryError(400, missing);
  const record = toRecord(digest, bytes, shape);
  if (ref.kind === 'digest') store.putManifest(req.name, record);
  for (const tag of ref.kind === 'tag' ? decisions.tagsOnPush(ref.tag) : []) store.putManifest(req.name, record, tag);
  const headers: Record<string, string> = { Location: manifestLocation(req.name, digest), 'Docker-Content-Digest': digest };
  // The referrers API is supported, so a subject MUST be acknowledged with OCI-Subject.
  if (shape.subject) headers['OCI-Subject'] = shape.subject;
  return { status: 201, headers };
};

export const deleteManifest: Route = ({ store }, req) => {
  const ref = readReference(req.param);
  requireRepository(store, req.name);
  const deleted = ref.kind === 'digest' ? store.deleteManifest(req.name, ref.digest) : store.deleteTag(req.name, ref.tag);
  if (!deleted) throw manifestUnknown(req.param);
  return { status: 202 };
};
