// Pushing blobs: POST /v2/<name>/blobs/uploads/ (session, ?digest= single POST, ?mount=&from= cross-mount) and
// the session at <location>: PATCH chunks, PUT to close, GET status, DELETE to cancel (end-4a/4b, 5, 6, 11, 13, 14).
import { ociError, RegistryError } from './errors.ts';
import { checkDigest, isValidName } from './grammar.ts';
import { header, type Quota, type Reply, type RouteRequest } from './http.ts';
import { blobLocation, requestDigest, unsupportedAlgorithm, uploadLocation, type RouteDeps, type Route } from './context.ts';
import type { UploadSession } from './store.ts';

/** The digest a blob is pushed under: malformed is DIGEST_INVALID, another algorithm UNSUPPORTED (sha256 only). */
function pushDigest(value: string | null): string {
  if (value === null) throw ociError(400, 'DIGEST_INVALID', 'the digest query parameter is required');
  return requestDigest(value, () => unsupportedAlgorithm(value));
}

function blobTooLarge(limit: number): () => RegistryError {
  return () => ociError(413, 'BLOB_UPLOAD_INVALID', 'blob exceeds the registry size limit', { limit });
}

/** The store's byte quota, as readBody charges it; past it a push gets 507 with an OCI error body. */
function quotaOf({ store }: RouteDeps): Quota {
  return {
    charge: (bytes) => store.charge(bytes),
    refund: (bytes) => store.refund(bytes),
    exceeded: () =>
      ociError(507, 'DENIED', "the registry's storage quota is full", {
        quotaBytes: store.quotaBytes,
        usedBytes: store.usedBytes,
        uploadSessionBytes: store.sessionBytes(),
      }),
  };
}

/** Status headers of a session: `Range` is inclusive, and "0-0" for an empty session as Docker clients expect. */
function progressHeaders(session: UploadSession): Record<string, string> {
  return {
    Location: uploadLocation(session.name, session.id),
    Range: `0-${Math.max(0, session.size - 1)}`,
    'Docker-Upload-UUID': session.id,
  };
}

function created(name: string, digest: string): Reply {
  return { status: 201, headers: { Location: blobLocation(name, digest), 'Docker-Content-Digest': digest } };
}

function openSession({ store, now }: RouteDeps, name: string): Reply {
  // Room for one more: the session idle longest goes first (an abandoned push), as its expiry would take it anyway.
  if (store.sessionCount >= store.maxSessions && !store.expireOldestUpload()) {
    throw ociError(429, 'TOOMANYREQUESTS', 'too many upload sessions open', { maxSessions: store.maxSessions });
  }
  return { status: 202, headers: progressHeaders(store.startUpload(name, now())) };
}

async function singlePost(deps: RouteDeps, req: RouteRequest, digestParam: string): Promise<Reply> {
  const digest = pushDigest(digestParam);
  const body = await req.readBody(deps.limits.maxBlobBytes, blobTooLarge(deps.limits.maxBlobBytes), quotaOf(deps));
  if (!deps.decisions.digestMatches([body], digest)) {
    deps.store.refund(body.length);
    throw ociError(400, 'DIGEST_INVALID', 'provided digest did not match uploaded content', { digest });
  }
  deps.store.putBlob(req.name, digest, body);
  return created(req.name, digest);
}

/** A mount we cannot do (unknown blob, no or bad `from`, other algorithm) opens a session, as the spec asks. */
function mount(deps: RouteDeps, req: RouteRequest, mountParam: string): Reply {
  const check = checkDigest(mountParam);
  if (!check.ok && check.reason === 'invalid') throw ociError(400, 'DIGEST_INVALID', 'invalid digest', { digest: mountParam });
  const from = req.query.get('from');
  if (check.ok && from !== null && isValidName(from) && deps.store.mountBlob(req.name, check.digest, from)) {
    return created(req.name, check.digest);
  }
  return openSession(deps, req.name);
}

export const startUpload: Route = (deps, req) => {
  deps.store.expireUploads(deps.now() - deps.limits.uploadTtlMs);
  const mountParam = req.query.get('mount');
  if (mountParam !== null) return mount(deps, req, mountParam);
  const digestParam = req.query.get('digest');
  if (digestParam !== null) return singlePost(deps, req, digestParam);
  return openSession(deps, req.name);
};

function session(deps: RouteDeps, req: RouteRequest): UploadSession {
  const found = deps.store.upload(req.name, req.param);
  if (!found) throw ociError(404, 'BLOB_UPLOAD_UNKNOWN', 'blob upload unknown to registry', { uuid: req.param });
  return found;
}

/**
 * The chunk's `Content-Range` (spec: `^[0-9]+-[0-9]+$`, inclusive). It must start where the session ends,
 * else 416 with the session's Range so the client can resume. Absent means "append" (Docker streams that way).
 */
function chunkRange(s: UploadSession, value: string | undefined): { start: number; end: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)-(\d+)$/.exec(value.trim());
  if (!m) throw ociError(400, 'BLOB_UPLOAD_INVALID', 'Content-Range must be <start>-<end>', { contentRange: value });
  const start = Number(m[1]);
  const end = Number(m[2]);
  if (start !== s.size || end < start) {
    throw new RegistryError(
      416,
      { code: 'BLOB_UPLOAD_INVALID', message: 'chunk out of order', detail: { contentRange: value, expectedStart: s.size } },
      progressHeaders(s),
    );
  }
  return { start, end };
}

async function readChunk(deps: RouteDeps, req: RouteRequest, s: UploadSession): Promise<Buffer> {
  const range = chunkRange(s, header(req.headers, 'content-range'));
  const room = deps.limits.maxBlobBytes - s.size;
  const chunk = await req.readBody(room, blobTooLarge(deps.limits.maxBlobBytes), quotaOf(deps));
  if (range && chunk.length !== range.end - range.start + 1) {
    deps.store.refund(chunk.length);
    throw ociError(400, 'SIZE_INVALID', 'provided length did not match content length', {
      contentRange: `${range.start}-${range.end}`,
      received: chunk.length,
    });
  }
  return chunk;
}

export const patchUpload: Route = async (deps, req) => {
  const s = session(deps, req);
  deps.store.appendUpload(s, await readChunk(deps, req, s), deps.now());
  return { status: 202, headers: progressHeaders(s) };
};

/** Closing PUT: an optional final chunk, then the whole blob must hash to `?digest=`; a mismatch leaves the session as it was. */
export const closeUpload: Route = async (deps, req) => {
  const s = session(deps, req);
  const digest = pushDigest(req.query.get('digest'));
  const last = await readChunk(deps, req, s);
  const parts = last.length > 0 ? [...s.chunks, last] : s.chunks;
  if (!deps.decisions.digestMatches(parts, digest)) {
    // The session stays as it was; the final chunk it did not take goes back to the quota.
    deps.store.refund(last.length);
    throw ociError(400, 'DIGEST_INVALID', 'provided digest did not match uploaded content', { digest });
  }
  deps.store.putBlob(req.name, digest, Buffer.concat(parts));
  deps.store.closeUpload(s.id);
  return created(req.name, digest);
};

export const uploadStatus: Route = (deps, req) => ({ status: 204, headers: progressHeaders(session(deps, req)) });

export const cancelUpload: Route = (deps, req) => {
  deps.store.endUpload(session(deps, req).id);
  return { status: 204 };
};
