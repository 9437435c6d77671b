// Pushing blobs (distribution-spec v1.1 "Pushing blobs"): POST+PUT, single POST, chunked PATCH, status, cancel,
// cross-repository mount, and the digest and range checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startRegistry } from '../../reference/registry/server.ts';
import { digestOf, errorCodes, pushBlob, useRegistry } from './registry-helpers.ts';

const registry = useRegistry();
const base = () => registry.current.url;

async function openSession(name = 'acme/app'): Promise<{ res: Response; location: URL }> {
  const res = await fetch(`${base()}/v2/${name}/blobs/uploads/`, { method: 'POST', headers: { 'Content-Length': '0' } });
  return { res, location: new URL(res.headers.get('location') ?? '', base()) };
}

function withDigest(location: URL, digest: string): URL {
  const url = new URL(location);
  url.searchParams.set('digest', digest);
  return url;
}

async function blobBody(name: string, digest: string): Promise<string> {
  const res = await fetch(`${base()}/v2/${name}/blobs/${digest}`);
  assert.equal(res.status, 200);
  return res.text();
}

test('POST opens a session: 202, Location with a UUID, Docker-Upload-UUID, Range', async () => {
  const { res, location } = await openSession();
  assert.equal(res.status, 202);
  const uuid = res.headers.get('docker-upload-uuid')!;
  assert.match(uuid, /^[0-9a-f-]{36}$/);
  assert.equal(location.pathname, `/v2/acme/app/blobs/uploads/${uuid}`);
  assert.equal(res.headers.get('range'), '0-0');
  assert.equal(res.headers.get('oci-chunk-min-length'), null, 'no minimum chunk size, so no header');
});

test('POST then PUT: 201 with the blob Location and Docker-Content-Digest; the blob is pullable', async () => {
  const { location } = await openSession();
  const digest = digestOf('hello blob');
  const put = await fetch(withDigest(location, digest), {
    method: 'PUT',
    body: 'hello blob',
    headers: { 'Content-Type': 'application/octet-stream' },
  });
  assert.equal(put.status, 201);
  assert.equal(put.headers.get('location'), `/v2/acme/app/blobs/${digest}`);
  assert.equal(put.headers.get('docker-content-digest'), digest);
  assert.equal(await blobBody('acme/app', digest), 'hello blob');
  assert.equal((await fetch(location)).status, 404, 'the session is closed');
});

test('single POST with ?digest= stores the blob: 201 and Location', async () => {
  const digest = digestOf('one shot');
  const res = await fetch(`${base()}/v2/acme/app/blobs/uploads/?digest=${digest}`, { method: 'POST', body: 'one shot' });
  assert.equal(res.status, 201);
  assert.equal(res.headers.get('location'), `/v2/acme/app/blobs/${digest}`);
  assert.equal(await blobBody('acme/app', digest), 'one shot');
});

test('chunked: PATCH chunks in order (202 + Range), then PUT closes with the whole digest', async () => {
  const { location } = await openSession();
  const one = await fetch(location, {
    method: 'PATCH',
    body: 'abc',
    headers: { 'Content-Range': '0-2', 'Content-Type': 'application/octet-stream' },
  });
  assert.equal(one.status, 202);
  assert.equal(one.headers.get('range'), '0-2');
  const next = new URL(one.headers.get('location')!, base());
  const two = await fetch(next, { method: 'PATCH', body: 'defg', headers: { 'Content-Range': '3-6' } });
  assert.equal(two.headers.get('range'), '0-6');
  const digest = digestOf('abcdefg');
  const put = await fetch(withDigest(new URL(two.headers.get('location')!, base()), digest), { method: 'PUT' });
  assert.equal(put.status, 201);
  assert.equal(await blobBody('acme/app', digest), 'abcdefg');
});

test('chunked: the final chunk may come with the closing PUT', async () => {
  const { location } = await openSession();
  await fetch(location, { method: 'PATCH', body: 'abc', headers: { 'Content-Range': '0-2' } });
  const digest = digestOf('abcdef');
  const put = await fetch(withDigest(location, digest), { method: 'PUT', body: 'def', headers: { 'Content-Range': '3-5' } });
  assert.equal(put.status, 201);
  assert.equal(await blobBody('acme/app', digest), 'abcdef');
});

test('a PATCH without Content-Range appends (streamed upload)', async () => {
  const { location } = await openSession();
  await fetch(location, { method: 'PATCH', body: 'ab' });
  const res = await fetch(location, { method: 'PATCH', body: 'cd' });
  assert.equal(res.headers.get('range'), '0-3');
});

test('an out-of-order chunk is 416, with the Range and Location to resume from', async () => {
  const { location } = await openSession();
  await fetch(location, { method: 'PATCH', body: 'abc', headers: { 'Content-Range': '0-2' } });
  for (const range of ['5-7', '0-2', '2-4']) {
    const res = await fetch(location, { method: 'PATCH', body: 'xyz', headers: { 'Content-Range': range } });
    assert.equal(res.status, 416, range);
    assert.equal(res.headers.get('range'), '0-2');
    assert.equal(new URL(res.headers.get('location')!, base()).pathname, location.pathname);
    assert.deepEqual(await errorCodes(res), ['BLOB_UPLOAD_INVALID']);
  }
  const firstChunkNotAtZero = await openSession();
  const res = await fetch(firstChunkNotAtZero.location, { method: 'PATCH', body: 'abc', headers: { 'Content-Range': '1-3' } });
  assert.equal(res.status, 416);
});

test('a chunk whose length differs from its Content-Range is 400 SIZE_INVALID; a malformed range 400', async () => {
  const { location } = await openSession();
  const short = await fetch(location, { method: 'PATCH', body: 'ab', headers: { 'Content-Range': '0-9' } });
  assert.equal(short.status, 400);
  assert.deepEqual(await errorCodes(short), ['SIZE_INVALID']);
  const malformed = await fetch(location, { method: 'PATCH', body: 'ab', headers: { 'Content-Range': 'bytes 0-1/2' } });
  assert.equal(malformed.status, 400);
  assert.deepEqual(await errorCodes(malformed), ['BLOB_UPLOAD_INVALID']);
});

test('GET on the session is 204 with Location and Range of what was received', async () => {
  const { location } = await openSession();
  await fetch(location, { method: 'PATCH', body: '12345', headers: { 'Content-Range': '0-4' } });
  const res = await fetch(location);
  assert.equal(res.status, 204);
  assert.equal(res.headers.get('range'), '0-4');
  assert.equal(new URL(res.headers.get('location')!, base()).pathname, location.pathname);
});

test('DELETE on the session cancels it: 204, then the session is 404 BLOB_UPLOAD_UNKNOWN', async () => {
  const { location } = await openSession();
  assert.equal((await fetch(location, { method: 'DELETE' })).status, 204);
  const res = await fetch(location, { method: 'PATCH', body: 'x' });
  assert.equal(res.status, 404);
  assert.deepEqual(await errorCodes(res), ['BLOB_UPLOAD_UNKNOWN']);
});

test('a session is only reachable under its own repository', async () => {
  const { location } = await openSession('acme/app');
  const elsewhere = location.pathname.replace('/acme/app/', '/acme/other/');
  const res = await fetch(`${base()}${elsewhere}`);
  assert.equal(res.status, 404);
  assert.deepEqual(await errorCodes(res), ['BLOB_UPLOAD_UNKNOWN']);
});

test('a digest that does not match the bytes is 400 DIGEST_INVALID, and nothing is stored', async () => {
  const wrong = digestOf('something else');
  const single = await fetch(`${base()}/v2/acme/app/blobs/uploads/?digest=${wrong}`, { method: 'POST', body: 'payload' });
  assert.equal(single.status, 400);
  assert.deepEqual(await errorCodes(single), ['DIGEST_INVALID']);
  const { location } = await openSession();
  const put = await fetch(withDigest(location, wrong), { method: 'PUT', body: 'payload' });
  assert.equal(put.status, 400);
  assert.deepEqual(await errorCodes(put), ['DIGEST_INVALID']);
  assert.equal((await fetch(`${base()}/v2/acme/app/blobs/${wrong}`, { method: 'HEAD' })).status, 404);
  assert.equal((await fetch(location)).headers.get('range'), '0-0', 'the failed close left the session as it was');
});

test('a malformed or missing digest is 400 DIGEST_INVALID; another algorithm 400 UNSUPPORTED', async () => {
  const { location } = await openSession();
  for (const digest of ['sha256:xyz', 'sha256:' + 'A'.repeat(64), 'nocolon']) {
    const res = await fetch(withDigest(location, digest), { method: 'PUT', body: 'x' });
    assert.equal(res.status, 400, digest);
    assert.deepEqual(await errorCodes(res), ['DIGEST_INVALID'], digest);
  }
  const missing = await fetch(location, { method: 'PUT', body: 'x' });
  assert.deepEqual(await errorCodes(missing), ['DIGEST_INVALID']);
  const sha512 = await fetch(withDigest(location, 'sha512:' + 'a'.repeat(128)), { method: 'PUT', body: 'x' });
  assert.equal(sha512.status, 400);
  assert.deepEqual(await errorCodes(sha512), ['UNSUPPORTED']);
});

test('cross-repository mount: 201 when the source holds the blob, else 202 and an upload session', async () => {
  const digest = await pushBlob(base(), 'acme/source', 'shared layer');
  const mounted = await fetch(`${base()}/v2/acme/target/blobs/uploads/?mount=${digest}&from=acme/source`, { method: 'POST' });
  assert.equal(mounted.status, 201);
  assert.equal(mounted.headers.get('location'), `/v2/acme/target/blobs/${digest}`);
  assert.equal(mounted.headers.get('docker-content-digest'), digest);
  assert.equal(await blobBody('acme/target', digest), 'shared layer');

  const unknown = digestOf('not here');
  for (const query of [`mount=${unknown}&from=acme/source`, `mount=${digest}&from=acme/nowhere`, `mount=${digest}`]) {
    const res = await fetch(`${base()}/v2/acme/third/blobs/uploads/?${query}`, { method: 'POST' });
    assert.equal(res.status, 202, query);
    assert.match(res.headers.get('location')!, /^\/v2\/acme\/third\/blobs\/uploads\/[0-9a-f-]{36}$/);
  }
});

test('upload sessions older than uploadTtlMs are forgotten when the next one opens', async () => {
  let clock = 0;
  const timed = await startRegistry({ uploadTtlMs: 1000, now: () => clock });
  try {
    const open = () => fetch(`${timed.url}/v2/acme/app/blobs/uploads/`, { method: 'POST' });
    const old = new URL((await open()).headers.get('location')!, timed.url);
    clock = 5000;
    await open();
    assert.equal((await fetch(old)).status, 404);
  } finally {
    await timed.close();
  }
});
