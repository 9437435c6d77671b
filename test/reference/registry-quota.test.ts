// The registry's memory is bounded: one byte quota over blobs, open upload sessions and bodies being read (507 with
// an OCI error body past it), every byte given back when a session is cancelled, expires or a blob is deleted, and
// a cap on open sessions that makes room by dropping the one idle longest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { digestOf, errorCodes, pushBlob, useRegistry } from './registry-helpers.ts';

const KIB = 1024;
const registry = useRegistry({ quotaBytes: 256 * KIB });
const base = () => registry.current.url;
const store = () => registry.current.store;

async function open(name = 'acme/app'): Promise<URL> {
  const res = await fetch(`${base()}/v2/${name}/blobs/uploads/`, { method: 'POST', headers: { 'Content-Length': '0' } });
  assert.equal(res.status, 202);
  return new URL(res.headers.get('location')!, base());
}

const patch = (location: URL, bytes: Buffer) =>
  fetch(location, { method: 'PATCH', body: bytes, headers: { 'Content-Type': 'application/octet-stream' } });

test('a push past the quota gets 507 with an OCI error body naming the quota; the quota is whole again after', async () => {
  await pushBlob(base(), 'acme/app', Buffer.alloc(200 * KIB, 1));
  assert.equal(store().usedBytes, 200 * KIB);
  const location = await open();
  const res = await patch(location, Buffer.alloc(100 * KIB, 2));
  assert.equal(res.status, 507);
  assert.match(res.headers.get('content-type') ?? '', /json/);
  const body = (await res.clone().json()) as { errors: { code: string; detail: { quotaBytes: number } }[] };
  assert.deepEqual(await errorCodes(res), ['DENIED']);
  assert.equal(body.errors[0]!.detail.quotaBytes, 256 * KIB);
  assert.equal(store().usedBytes, 200 * KIB, 'the refused chunk was given back');
});

test('a chunked body without a length is charged as it arrives: two concurrent uploads cannot together pass the quota', async () => {
  const [a, b] = await Promise.all([open(), open()]);
  // Streams without Content-Length, as a chunked push sends them.
  const stream = (fill: number) =>
    new ReadableStream({
      start(c) {
        for (let i = 0; i < 20; i++) c.enqueue(new Uint8Array(10 * KIB).fill(fill));
        c.close();
      },
    });
  const send = (url: URL, fill: number) => fetch(url, { method: 'PATCH', body: stream(fill), duplex: 'half' } as RequestInit);
  const statuses = (await Promise.all([send(a, 1), send(b, 2)])).map((r) => r.status).sort();
  assert.deepEqual(statuses, [202, 507], 'one fits, the other is refused');
  assert.equal(store().usedBytes, 200 * KIB);
});

test('cancelling, expiring and deleting give the bytes back', async () => {
  const cancelled = await open();
  assert.equal((await patch(cancelled, Buffer.alloc(50 * KIB))).status, 202);
  assert.equal(store().usedBytes, 50 * KIB);
  assert.equal((await fetch(cancelled, { method: 'DELETE' })).status, 204);
  assert.equal(store().usedBytes, 0);

  const abandoned = await open();
  assert.equal((await patch(abandoned, Buffer.alloc(60 * KIB))).status, 202);
  store().expireUploads(Date.now() + 1);
  assert.equal(store().usedBytes, 0, 'an expired session holds nothing');

  const bytes = Buffer.alloc(70 * KIB, 3);
  const digest = await pushBlob(base(), 'acme/app', bytes);
  assert.equal(store().usedBytes, 70 * KIB);
  await pushBlob(base(), 'acme/other', bytes);
  assert.equal(store().usedBytes, 70 * KIB, 'the same bytes pushed twice are held once');
  assert.equal((await fetch(`${base()}/v2/acme/app/blobs/${digest}`, { method: 'DELETE' })).status, 202);
  assert.equal(store().usedBytes, 70 * KIB, 'still linked in acme/other');
  assert.equal((await fetch(`${base()}/v2/acme/other/blobs/${digest}`, { method: 'DELETE' })).status, 202);
  assert.equal(store().usedBytes, 0);
});

test('a push whose digest does not match keeps nothing of it', async () => {
  const location = await open();
  location.searchParams.set('digest', digestOf('something else'));
  const res = await fetch(location, { method: 'PUT', body: Buffer.alloc(10 * KIB) });
  assert.equal(res.status, 400);
  assert.equal(store().usedBytes, 0);
});

test('past the cap on open sessions, the one idle longest makes room', async () => {
  const first = await open();
  for (let i = 1; i < store().maxSessions; i++) store().startUpload('acme/app', Date.now() + i);
  assert.equal(store().sessionCount, store().maxSessions);
  await open();
  assert.equal(store().sessionCount, store().maxSessions);
  assert.equal((await fetch(first, { method: 'GET' })).status, 404, 'the oldest session is gone');
});
