// The identity role stays a read-only GET/HEAD service whatever a client sends (§1, §4.5, §4.6).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { identityFixture, type IdentityFixture } from './identity-fixture.ts';

let f: IdentityFixture;
before(async () => (f = await identityFixture()));
after(() => f.close());

test('HEAD gives the GET headers and no body, for both documents', async () => {
  for (const url of [f.service.discoveryUrl, f.service.trustBundleUri]) {
    const get = await f.call(url);
    const head = await f.call(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    for (const h of ['etag', 'content-type', 'content-length', 'cache-control']) assert.equal(head.headers[h], get.headers[h], h);
    assert.equal(Number(head.headers['content-length']), Buffer.byteLength(get.text));
  }
});

test('HEAD with a matching If-None-Match gives 304', async () => {
  const { etag } = (await f.call(f.service.trustBundleUri)).headers;
  assert.equal((await f.call(f.service.trustBundleUri, { method: 'HEAD', headers: { 'if-none-match': etag! } })).status, 304);
});

test('other methods give 405 with Allow and a JSON error', async () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    const r = await f.call(f.service.trustBundleUri, { method, body: method === 'POST' ? '{"x":1}' : undefined });
    assert.equal(r.status, 405, method);
    assert.equal(r.headers.allow, 'GET, HEAD');
    assert.equal(typeof JSON.parse(r.text).error, 'string');
  }
});

test('unknown paths give 404 with a JSON error', async () => {
  for (const path of [
    '/',
    '/bundle/other.json',
    '/.well-known/margo',
    '/.well-known/platform/x',
    '/%00%ff',
    '/bundle/wfmck.test.json/..',
  ]) {
    const r = await f.call(f.service.url + path);
    assert.equal(r.status, 404, path);
    assert.equal(typeof JSON.parse(r.text).error, 'string');
  }
});

test('a query string does not change the resource', async () => {
  assert.equal((await f.call(`${f.service.trustBundleUri}?x=1`)).status, 200);
});

test('a request body is ignored; one past 64 KiB is cut off and the service keeps serving', async () => {
  const small = await f.call(f.service.discoveryUrl, { method: 'GET', body: 'x'.repeat(1000) });
  assert.equal(small.status, 200);
  const big = await f.call(f.service.trustBundleUri, { method: 'POST', body: Buffer.alloc(4 * 1024 * 1024) }).catch((e: Error) => e);
  if (!(big instanceof Error)) assert.equal(big.status, 405);
  assert.equal((await f.call(f.service.trustBundleUri)).status, 200);
});

test('close is idempotent', async () => {
  const g = await identityFixture();
  await g.close();
  await g.service.close();
});
