// RegistryClient against a lying registry (undici MockAgent): wrong bytes, Link loops, absolute Locations, redirects.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { MockAgent } from 'undici';
import { DigestError, RegistryClient } from '../../simulators/registry-client.ts';
import { Transcript } from '../../simulators/transport/transcript.ts';
import { createTransport } from '../../simulators/transport/undici-transport.ts';
import { digestOf } from '../../spec/rules/desired-state.ts';
import { forgetNamedTargets, nameTargets } from '../../spec/network-policy.ts';

const ORIGIN = 'https://127.0.0.1:5443';
const enc = new TextEncoder();
let mock: MockAgent;
let transcript: Transcript;
let client: RegistryClient;

beforeEach(() => {
  mock = new MockAgent();
  mock.disableNetConnect();
  transcript = new Transcript();
  client = new RegistryClient({ transport: createTransport({ baseUrl: ORIGIN, dispatcher: mock, transcript }) });
});
afterEach(() => mock.close());

const pool = () => mock.get(ORIGIN);

test('§2.7 rule 8: a blob whose bytes do not hash to its digest is WFMCK_E_DIGEST_MISMATCH with expected and actual', async () => {
  const asked = digestOf(enc.encode('the real archive'));
  pool()
    .intercept({ path: `/v2/acme/app/blobs/${asked}` })
    .reply(200, 'tampered archive');
  const error = await client.getBlob('acme/app', asked).then(
    () => assert.fail('accepted tampered bytes'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof DigestError);
  assert.equal(error.code, 'WFMCK_E_DIGEST_MISMATCH');
  assert.equal(error.expected, asked);
  assert.equal(error.actual, digestOf(enc.encode('tampered archive')));
  assert.equal(error.exchange.status, 200);
});

test('a manifest pulled by digest is verified too; a digest of an unknown algorithm cannot be', async () => {
  const asked = digestOf(enc.encode('{"schemaVersion":2}'));
  pool()
    .intercept({ path: `/v2/acme/app/manifests/${asked}` })
    .reply(200, '{"schemaVersion":2,"x":1}');
  await assert.rejects(client.getManifest('acme/app', asked), { code: 'WFMCK_E_DIGEST_MISMATCH' });
  pool().intercept({ path: '/v2/acme/app/blobs/md5:abc' }).reply(200, 'x');
  await assert.rejects(client.getBlob('acme/app', 'md5:abc'), { code: 'WFMCK_E_DIGEST_UNSUPPORTED' });
});

test('allTags stops at a Link rel="next" that loops back', async () => {
  const link = { link: '</v2/acme/app/tags/list?n=1&last=a>; rel="next"' };
  pool()
    .intercept({ path: '/v2/acme/app/tags/list' })
    .reply(200, { name: 'acme/app', tags: ['a'] }, { headers: link });
  pool()
    .intercept({ path: '/v2/acme/app/tags/list?n=1&last=a' })
    .reply(200, { name: 'acme/app', tags: ['a'] }, { headers: link })
    .times(2);
  const all = await client.allTags('acme/app');
  assert.match(all.problem ?? '', /loops back/);
  assert.deepEqual(all.tags, ['a', 'a']);
});

test('pushBlob follows an absolute upload Location and keeps its query when adding ?digest', async () => {
  const bytes = enc.encode('layer');
  const digest = digestOf(bytes);
  pool()
    .intercept({ path: `/v2/acme/app/blobs/${digest}`, method: 'HEAD' })
    .reply(404, '');
  pool()
    .intercept({ path: '/v2/acme/app/blobs/uploads/', method: 'POST' })
    .reply(202, '', { headers: { location: `${ORIGIN}/upload/session-1?state=abc` } });
  pool()
    .intercept({ path: `/upload/session-1?state=abc&digest=${digest}`, method: 'PUT' })
    .reply(201, '');
  const pushed = await client.pushBlob('acme/app', bytes);
  assert.ok(pushed.ok);
  mock.assertNoPendingInterceptors();
});

test('a refused upload step is returned, not thrown', async () => {
  const bytes = enc.encode('layer');
  pool()
    .intercept({ path: `/v2/acme/app/blobs/${digestOf(bytes)}`, method: 'HEAD' })
    .reply(404, '');
  pool().intercept({ path: '/v2/acme/app/blobs/uploads/', method: 'POST' }).reply(403, '{"errors":[{"code":"DENIED"}]}');
  const pushed = await client.pushBlob('acme/app', bytes);
  assert.deepEqual([pushed.ok, pushed.response.status], [false, 403]);
});

test('a blob redirected to storage on another origin is followed without the registry credentials', async () => {
  const bytes = enc.encode('stored elsewhere');
  const digest = digestOf(bytes);
  const basic = new RegistryClient({
    transport: createTransport({ baseUrl: ORIGIN, dispatcher: mock, transcript }),
    auth: { kind: 'basic', username: 'dev', password: 'pw' },
  });
  pool()
    .intercept({ path: `/v2/acme/app/blobs/${digest}`, headers: { authorization: `Basic ${Buffer.from('dev:pw').toString('base64')}` } })
    .reply(307, '', { headers: { location: 'https://127.0.0.2:5443/blob?sig=1' } });
  mock
    .get('https://127.0.0.2:5443')
    .intercept({ path: '/blob?sig=1', headers: (h) => !Object.keys(h).some((k) => k.toLowerCase() === 'authorization') })
    .reply(200, Buffer.from(bytes));
  const pulled = await basic.getBlob('acme/app', digest);
  assert.equal(pulled.response.status, 200);
  assert.equal(Buffer.from(pulled.bytes).toString(), 'stored elsewhere');
  assert.equal(transcript.all()[0]!.requestHeaders['authorization'], '<redacted>');
});

test('a wrapped transport that hides its base URL: relative paths go to it, and the origin is learnt from the answer', async () => {
  const inner = createTransport({ baseUrl: ORIGIN, dispatcher: mock });
  const wrapped = new RegistryClient({ transport: { request: (o) => inner.request(o), close: () => inner.close() } });
  pool()
    .intercept({ path: '/v2/acme/app/tags/list' })
    .reply(200, { name: 'acme/app', tags: ['1.0.0'] }, { headers: { link: '</v2/acme/app/tags/list?last=1.0.0>; rel="next"' } });
  pool()
    .intercept({ path: '/v2/acme/app/tags/list?last=1.0.0' })
    .reply(200, { name: 'acme/app', tags: ['2.0.0'] });
  const all = await wrapped.allTags('acme/app');
  assert.deepEqual(all.tags, ['1.0.0', '2.0.0']);
  assert.equal(all.pages[1]!.exchange.url, `${ORIGIN}/v2/acme/app/tags/list?last=1.0.0`);
});

test('a redirect or an upload Location to a host neither named nor on loopback is refused before any socket: WFMCK_E_UNNAMED_HOST, kept as evidence', async () => {
  const digest = digestOf(enc.encode('x'));
  pool()
    .intercept({ path: `/v2/acme/app/blobs/${digest}` })
    .reply(307, '', { headers: { location: 'http://refused.invalid/blob' } });
  const redirected = await client.getBlob('acme/app', digest).then(
    () => assert.fail('followed'),
    (e: Error & { code?: string }) => e,
  );
  assert.equal(redirected.code, 'WFMCK_E_UNNAMED_HOST');
  assert.match(
    redirected.message,
    /refused\.invalid is neither a named target nor on loopback; the kit sends traffic only to the hosts you name and to loopback/,
  );
  pool()
    .intercept({ path: `/v2/acme/app/blobs/${digest}`, method: 'HEAD' })
    .reply(404, '');
  pool()
    .intercept({ path: '/v2/acme/app/blobs/uploads/', method: 'POST' })
    .reply(202, '', { headers: { location: 'http://refused.invalid/upload/1' } });
  const pushed = await client.pushBlob('acme/app', enc.encode('x')).then(
    () => assert.fail('uploaded'),
    (e: Error & { code?: string }) => e,
  );
  assert.equal(pushed.code, 'WFMCK_E_UNNAMED_HOST');
  // The refusals are in the transcript, and no request to that host was ever made (MockAgent allows no net connect).
  assert.deepEqual(
    transcript
      .all()
      .filter((x) => x.url.includes('refused.invalid'))
      .map((x) => x.error?.code),
    ['WFMCK_E_UNNAMED_HOST', 'WFMCK_E_UNNAMED_HOST'],
  );
  mock.assertNoPendingInterceptors();
});

test('a redirect to a host the user named is followed (the policy allows it); the same redirect before it is named is refused', async () => {
  const bytes = enc.encode('the archive');
  const digest = digestOf(bytes);
  const redirect = () =>
    pool()
      .intercept({ path: `/v2/acme/app/blobs/${digest}` })
      .reply(307, '', { headers: { location: 'https://blobs.example.test/b/1' } });
  redirect();
  await assert.rejects(client.getBlob('acme/app', digest), { code: 'WFMCK_E_UNNAMED_HOST' });
  nameTargets(['https://blobs.example.test']);
  try {
    redirect();
    // MockAgent answers for the named host: no socket leaves the process.
    mock.get('https://blobs.example.test').intercept({ path: '/b/1' }).reply(200, Buffer.from(bytes));
    const got = await client.getBlob('acme/app', digest);
    assert.equal(got.response.status, 200);
    assert.equal(Buffer.from(got.bytes).toString(), 'the archive');
  } finally {
    forgetNamedTargets();
  }
  mock.assertNoPendingInterceptors();
});
