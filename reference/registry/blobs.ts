// Pulling, checking and deleting blobs: GET/HEAD/DELETE /v2/<name>/blobs/<digest> (end-2, end-10).
import { ociError } from './errors.ts';
import { header } from './http.ts';
import { requestDigest, requireRepository, type Route } from './context.ts';

export type ByteRange = { start: number; end: number } | 'unsatisfiable' | undefined;

/**
 * One RFC 9110 byte range (`a-b`, `a-`, `-suffix`) clamped to `size`. Headers we do not serve partially
 * (other units, several ranges, bad syntax) are ignored, which RFC 9110 allows: the client gets the whole blob.
 */
export function parseByteRange(value: string | undefined, size: number): ByteRange {
  const m = value === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return undefined;
  return start >= size ? 'unsatisfiable' : { start, end };
}

const blobUnknown = (digest: string): Error => ociError(404, 'BLOB_UNKNOWN', 'blob unknown to registry', { digest });

// A well-formed digest of another algorithm cannot be stored here, so on reads it is simply unknown.
export const getBlob: Route = ({ store }, req) => {
  const unknown = () => blobUnknown(req.param);
  const digest = requestDigest(req.param, unknown);
  requireRepository(store, req.name);
  const bytes = store.blob(req.name, digest);
  if (!bytes) throw unknown();
  const headers = { 'Content-Type': 'application/octet-stream', 'Docker-Content-Digest': digest, 'Accept-Ranges': 'bytes' };
  const range = parseByteRange(header(req.headers, 'range'), bytes.length);
  if (range === 'unsatisfiable') return { status: 416, headers: { ...headers, 'Content-Range': `bytes */${bytes.length}` } };
  if (range) {
    const contentRange = `bytes ${range.start}-${range.end}/${bytes.length}`;
    return { status: 206, headers: { ...headers, 'Content-Range': contentRange }, body: bytes.subarray(range.start, range.end + 1) };
  }
  return { status: 200, headers, body: bytes };
};

export const deleteBlob: Route = ({ store }, req) => {
  const unknown = () => blobUnknown(req.param);
  const digest = requestDigest(req.param, unknown);
  requireRepository(store, req.name);
  if (!store.deleteBlob(req.name, digest)) throw unknown();
  return { status: 202 };
};
