// Pulling, checking and deleting blobs (distribution-spec v1.1 "Pulling blobs", "Checking if content exists",
// "Deleting Blobs"), including RFC 9110 ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseByteRange } from '../../reference/registry/blobs.ts';
import { digestOf, errorCodes, pushBlob, useRegistry } from './registry-helpers.ts';

const registry = useRegistry();
const base = () => registry.current.url;
const blobUrl = (name: string, digest: string) => `${base()}/v2/${name}/blobs/${digest}`;

test('GET a blob: 200, the bytes, Content-Length, Docker-Content-Digest, application/octet-stream', async () => {
  const digest = await pushBlob(base(), 'acme/app', 'blob bytes');
  const res = await fetch(blobUrl('acme/app', digest));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-length'), '10');
  assert.equal(res.headers.get('docker-content-digest'), digest);
  assert.equal(res.headers.get('content-type'), 'application/octet-stream');
  assert.equal(await res.text(), 'blob bytes');
});

test('HEAD a blob: 200 with Content-Length and Docker-Content-Digest, no body', async () => {
  const digest = await pushBlob(base(), 'acme/app', 'blob bytes');
  const res = await fetch(blobUrl('acme/app', digest), { method: 'HEAD' });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-length'), '10');
  assert.equal(res.headers.get('docker-content-digest'), digest);
  assert.equal(await res.text(), '');
});

test('an unknown blob is 404 BLOB_UNKNOWN; an unknown repository 404 NAME_UNKNOWN', async () => {
  await pushBlob(base(), 'acme/app', 'something');
  const missing = await fetch(blobUrl('acme/app', digestOf('absent')));
  assert.equal(missing.status, 404);
  assert.deepEqual(await errorCodes(missing), ['BLOB_UNKNOWN']);
  const noRepo = await fetch(blobUrl('acme/none', digestOf('absent')));
  assert.equal(noRepo.status, 404);
  assert.deepEqual(await errorCodes(noRepo), ['NAME_UNKNOWN']);
  assert.equal((await fetch(blobUrl('acme/app', digestOf('absent')), { method: 'HEAD' })).status, 404);
});

test('a blob is served only from a repository it was pushed or mounted into', async () => {
  const digest = await pushBlob(base(), 'acme/one', 'private');
  await pushBlob(base(), 'acme/two', 'other');
  assert.equal((await fetch(blobUrl('acme/two', digest))).status, 404);
});

test('a malformed digest is 400 DIGEST_INVALID; a sha512 digest cannot be stored here, so 404', async () => {
  await pushBlob(base(), 'acme/app', 'x');
  const bad = await fetch(blobUrl('acme/app', 'sha256:nothex'));
  assert.equal(bad.status, 400);
  assert.deepEqual(await errorCodes(bad), ['DIGEST_INVALID']);
  const other = await fetch(blobUrl('acme/app', 'sha512:' + 'a'.repeat(128)));
  assert.equal(other.status, 404);
  assert.deepEqual(await errorCodes(other), ['BLOB_UNKNOWN']);
});

test('Range: 206 with Content-Range for one range; 416 when unsatisfiable', async () => {
  const digest = await pushBlob(base(), 'acme/app', '0123456789');
  const part = await fetch(blobUrl('acme/app', digest), { headers: { Range: 'bytes=2-5' } });
  assert.equal(part.status, 206);
  assert.equal(part.headers.get('content-range'), 'bytes 2-5/10');
  assert.equal(await part.text(), '2345');
  const tail = await fetch(blobUrl('acme/app', digest), { headers: { Range: 'bytes=-3' } });
  assert.equal(await tail.text(), '789');
  const beyond = await fetch(blobUrl('acme/app', digest), { headers: { Range: 'bytes=10-' } });
  assert.equal(beyond.status, 416);
  assert.equal(beyond.headers.get('content-range'), 'bytes */10');
  const multi = await fetch(blobUrl('acme/app', digest), { headers: { Range: 'bytes=0-1,4-5' } });
  assert.equal(multi.status, 200, 'several ranges are ignored: the whole blob');
});

test('parseByteRange follows RFC 9110 for a single range', () => {
  assert.deepEqual(parseByteRange('bytes=0-0', 5), { start: 0, end: 0 });
  assert.deepEqual(parseByteRange('bytes=3-', 5), { start: 3, end: 4 });
  assert.deepEqual(parseByteRange('bytes=3-100', 5), { start: 3, end: 4 });
  assert.deepEqual(parseByteRange('bytes=-100', 5), { start: 0, end: 4 });
  assert.equal(parseByteRange('bytes=-0', 5), 'unsatisfiable');
  assert.equal(parseByteRange('bytes=5-', 5), 'unsatisfiable');
  assert.equal(parseByteRange('bytes=0-', 0), 'unsatisfiable');
  assert.equal(parseByteRange('bytes=4-2', 5), undefined);
  assert.equal(parseByteRange('items=0-1', 5), undefined);
  assert.equal(parseByteRange(undefined, 5), undefined);
});

test('DELETE a blob: 202, then 404 BLOB_UNKNOWN; other repositories keep their link', async () => {
  const digest = await pushBlob(base(), 'acme/one', 'shared');
  await pushBlob(base(), 'acme/two', 'shared');
  const res = await fetch(blobUrl('acme/one', digest), { method: 'DELETE' });
  assert.equal(res.status, 202);
  assert.equal((await fetch(blobUrl('acme/one', digest))).status, 404);
  assert.equal((await fetch(blobUrl('acme/two', digest))).status, 200);
  const again = await fetch(blobUrl('acme/one', digest), { method: 'DELETE' });
  assert.equal(again.status, 404);
  assert.deepEqual(await errorCodes(again), ['BLOB_UNKNOWN']);
});

test('a digest with a percent-encoded colon names the same blob', async () => {
  const digest = await pushBlob(base(), 'acme/app', 'encoded');
  assert.equal((await fetch(blobUrl('acme/app', digest.replace(':', '%3A')))).status, 200);
});
