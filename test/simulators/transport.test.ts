// The undici transport against undici's MockAgent: retry policy, Retry-After, size caps, signing, test ids, errors.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyObject } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { MockAgent } from 'undici';
import { generateKeys } from '../../protocol/pki.ts';
import { verifySignature } from '../../protocol/signing.ts';
import { Transcript } from '../../simulators/transport/transcript.ts';
import { TEST_ID_HEADER, createTransport } from '../../simulators/transport/undici-transport.ts';
import { TransportError } from '../../simulators/transport/types.ts';

const ORIGIN = 'http://127.0.0.1:8080';
let mock: MockAgent;
let transcript: Transcript;

beforeEach(() => {
  mock = new MockAgent();
  mock.disableNetConnect();
  transcript = new Transcript();
});
afterEach(async () => {
  await mock.close();
});

const pool = () => mock.get(ORIGIN);
const fast = { attempts: 3, baseDelayMs: 1, maxDelayMs: 20 };
const transport = (over: Parameters<typeof createTransport>[0] = {}) =>
  createTransport({ baseUrl: ORIGIN, dispatcher: mock, transcript, retry: fast, ...over });

async function rejects(p: Promise<unknown>, code: string): Promise<TransportError> {
  const error = await p.then(
    () => assert.fail(`expected ${code}`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof TransportError, `not a TransportError: ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return error;
}

test('a GET returns status, lower-case headers and bytes, and sends the wfmck-test-id header', async () => {
  pool()
    .intercept({ path: '/api/v1/x', method: 'GET', headers: { [TEST_ID_HEADER]: 'CAP-201' } })
    .reply(200, 'hello', { headers: { 'Content-Type': 'text/plain', ETag: '"e1"' } });
  const res = await transport({ testId: 'CAP-201' }).request({ method: 'get', url: '/api/v1/x' });
  assert.equal(res.status, 200);
  assert.equal(res.headers['etag'], '"e1"');
  assert.equal(res.text(), 'hello');
  assert.equal(res.exchange.testId, 'CAP-201');
  assert.equal(res.exchange.method, 'GET');
  assert.equal(res.exchange.url, `${ORIGIN}/api/v1/x`);
  assert.equal(res.exchange.responseBody, 'hello');
  assert.deepEqual(
    transcript.forTest('CAP-201').map((x) => x.id),
    [res.exchange.id],
  );
  mock.assertNoPendingInterceptors();
});

test('json is sent as application/json; json() of a body that is not JSON is WFMCK_E_PROTOCOL with the exchange', async () => {
  pool()
    .intercept({ path: '/p', method: 'PUT', headers: { 'content-type': 'application/json' } })
    .reply((opts) => ({
      statusCode: 200,
      data: Buffer.from(opts.body as Uint8Array).toString() === '{"a":1}' ? 'not json' : 'wrong body',
    }));
  const res = await transport().request({ method: 'PUT', url: '/p', json: { a: 1 } });
  assert.equal(res.text(), 'not json');
  assert.equal(res.exchange.requestBody, '{"a":1}');
  const error = (() => {
    try {
      res.json();
    } catch (e) {
      return e;
    }
  })();
  assert.ok(error instanceof TransportError && error.code === 'WFMCK_E_PROTOCOL' && error.exchange === res.exchange);
});

for (const status of [429, 502, 503, 504]) {
  test(`an idempotent GET is retried after ${status}; every attempt is in the transcript`, async () => {
    pool().intercept({ path: '/r' }).reply(status, 'busy');
    pool().intercept({ path: '/r' }).reply(200, 'ok');
    const res = await transport().request({ method: 'GET', url: '/r', retry: 'idempotent' });
    assert.equal(res.status, 200);
    assert.equal(res.exchange.attempt, 2);
    assert.deepEqual(
      transcript.all().map((x) => [x.attempt, x.status]),
      [
        [1, status],
        [2, 200],
      ],
    );
  });
}

test('PUT and DELETE are retried when asked; a POST never is, even when asked', async () => {
  for (const method of ['PUT', 'DELETE']) {
    pool().intercept({ path: '/i', method }).reply(503, '');
    pool().intercept({ path: '/i', method }).reply(204, '');
    assert.equal((await transport().request({ method, url: '/i', retry: 'idempotent' })).status, 204, method);
  }
  pool().intercept({ path: '/s', method: 'POST' }).reply(503, '');
  const post = await transport().request({ method: 'POST', url: '/s', json: {}, retry: 'idempotent' });
  assert.equal(post.status, 503);
  assert.equal(transcript.all().filter((x) => x.method === 'POST').length, 1);
});

test('no retry unless asked, and never on a status that is an answer (500, 404)', async () => {
  pool().intercept({ path: '/n' }).reply(503, '');
  assert.equal((await transport().request({ method: 'GET', url: '/n' })).status, 503);
  for (const status of [500, 404]) {
    pool().intercept({ path: '/a' }).reply(status, '');
    assert.equal((await transport().request({ method: 'GET', url: '/a', retry: 'idempotent' })).status, status);
  }
  assert.equal(transcript.all().length, 3);
  mock.assertNoPendingInterceptors();
});

test('after the last attempt the last answer is returned as is', async () => {
  pool().intercept({ path: '/x' }).reply(503, 'still busy').times(3);
  const res = await transport().request({ method: 'GET', url: '/x', retry: 'idempotent' });
  assert.equal(res.status, 503);
  assert.equal(res.exchange.attempt, 3);
  assert.equal(transcript.all().length, 3);
});

test('Retry-After within maxDelayMs is waited for; beyond it the answer comes back at once (no retry sooner, P10)', async () => {
  pool()
    .intercept({ path: '/ra' })
    .reply(429, '', { headers: { 'retry-after': '1' } });
  pool().intercept({ path: '/ra' }).reply(200, '');
  let started = performance.now();
  const retried = await transport({ retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1500 } }).request({
    method: 'GET',
    url: '/ra',
    retry: 'idempotent',
  });
  let elapsed = performance.now() - started;
  assert.equal(retried.status, 200);
  assert.ok(elapsed >= 950 && elapsed < 1500, `waited ${elapsed} ms`);
  pool()
    .intercept({ path: '/long' })
    .reply(429, '', { headers: { 'retry-after': '3600' } });
  started = performance.now();
  const answered = await transport({ retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 150 } }).request({
    method: 'GET',
    url: '/long',
    retry: 'idempotent',
  });
  elapsed = performance.now() - started;
  assert.equal(answered.status, 429);
  assert.ok(elapsed < 140, `returned after ${elapsed} ms`);
});

test('a connection failure is WFMCK_E_CONNECTION, retried for an idempotent request', async () => {
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:80'), { code: 'ECONNREFUSED' });
  pool().intercept({ path: '/c' }).replyWithError(refused());
  pool().intercept({ path: '/c' }).reply(200, 'ok');
  assert.equal((await transport().request({ method: 'GET', url: '/c', retry: 'idempotent' })).status, 200);
  pool().intercept({ path: '/c', method: 'POST' }).replyWithError(refused());
  const error = await rejects(transport().request({ method: 'POST', url: '/c', retry: 'idempotent' }), 'WFMCK_E_CONNECTION');
  assert.equal(error.exchange.error?.code, 'WFMCK_E_CONNECTION');
  assert.match(error.message, /ECONNREFUSED/);
});

test('a TLS verification failure is WFMCK_E_TLS with OpenSSL words, and never retried', async () => {
  const tls = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  pool().intercept({ path: '/t' }).replyWithError(tls);
  const error = await rejects(transport().request({ method: 'GET', url: '/t', retry: 'idempotent' }), 'WFMCK_E_TLS');
  assert.match(error.message, /self-signed certificate/);
  assert.equal(transcript.all().length, 1);
});

test('the size cap: a body past maxResponseBytes fails; a Content-Length over it fails before reading', async () => {
  pool().intercept({ path: '/big' }).reply(200, Buffer.alloc(2048, 0x61));
  const error = await rejects(transport({ maxResponseBytes: 1024 }).request({ method: 'GET', url: '/big' }), 'WFMCK_E_RESPONSE_TOO_LARGE');
  assert.equal(error.exchange.status, 200);
  pool()
    .intercept({ path: '/liar' })
    .reply(200, 'tiny', { headers: { 'content-length': '999999999' } });
  const early = await rejects(transport().request({ method: 'GET', url: '/liar' }), 'WFMCK_E_RESPONSE_TOO_LARGE');
  assert.match(early.message, /Content-Length 999999999/);
  pool().intercept({ path: '/ok' }).reply(200, Buffer.alloc(1024, 0x61));
  assert.equal((await transport().request({ method: 'GET', url: '/ok', maxResponseBytes: 1024 })).body.length, 1024);
});

test('a HEAD answer is not held to its Content-Length', async () => {
  pool()
    .intercept({ path: '/h', method: 'HEAD' })
    .reply(200, '', { headers: { 'content-length': '99999999' } });
  const res = await transport().request({ method: 'HEAD', url: '/h' });
  assert.equal(res.status, 200);
  assert.equal(res.body.length, 0);
});

test('a signer adds Content-Digest and an RFC 9421 signature that verifies against the sent request', async () => {
  const keys = await generateKeys('P-256');
  let seen: Record<string, string> = {};
  pool()
    .intercept({ path: '/api/v1/capabilities/dev-1', method: 'PUT' })
    .reply((opts) => {
      seen = Object.fromEntries(Object.entries(opts.headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
      return { statusCode: 201, data: '' };
    });
  const signer = { keyId: 'k1', privateKey: KeyObject.from(keys.privateKey), algorithm: 'ecdsa-p256-sha256' as const };
  const res = await transport({ testId: 't' }).request({ method: 'PUT', url: '/api/v1/capabilities/dev-1', json: { a: 1 }, signer });
  assert.equal(res.status, 201);
  assert.match(seen['content-digest'] ?? '', /^sha-256=:/);
  assert.match(seen['signature-input'] ?? '', /"@method" "@target-uri" "content-digest" "content-type"/);
  const verdict = await verifySignature({
    method: 'PUT',
    url: `${ORIGIN}/api/v1/capabilities/dev-1`,
    headers: seen,
    hasBody: true,
    lookupKey: async () => ({ publicKey: KeyObject.from(keys.publicKey), algorithm: 'ecdsa-p256-sha256' }),
  });
  assert.deepEqual(verdict, { ok: true, keyId: 'k1' });
  assert.ok(res.exchange.requestHeaders['signature'], 'signature headers are evidence and stay in the exchange');
});

test("the caller's signal aborts with WFMCK_E_ABORTED, also while waiting to retry", async () => {
  pool().intercept({ path: '/slow' }).reply(200, 'late').delay(2000);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 20);
  await rejects(transport().request({ method: 'GET', url: '/slow', signal: controller.signal }), 'WFMCK_E_ABORTED');
  pool()
    .intercept({ path: '/wait' })
    .reply(503, '', { headers: { 'retry-after': '3' } });
  const waiting = new AbortController();
  setTimeout(() => waiting.abort(), 20);
  const error = await rejects(
    transport({ retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5000 } }).request({
      method: 'GET',
      url: '/wait',
      retry: 'idempotent',
      signal: waiting.signal,
    }),
    'WFMCK_E_ABORTED',
  );
  assert.equal(error.exchange.status, 503);
});

test("a caller's signal shared by many requests keeps no listener after them, and a long wait on it is ABORTED, not TIMEOUT", async () => {
  const shared = new AbortController();
  for (let i = 0; i < 20; i++)
    pool()
      .intercept({ path: `/n${i}` })
      .reply(200, 'ok');
  await Promise.all(Array.from({ length: 20 }, (_, i) => transport().request({ method: 'GET', url: `/n${i}`, signal: shared.signal })));
  assert.equal(getEventListeners(shared.signal, 'abort').length, 0);
  pool().intercept({ path: '/hang' }).reply(200, 'late').delay(2000);
  setTimeout(() => shared.abort(new Error('fleet interrupted')), 20);
  await rejects(transport({ timeoutMs: 5_000 }).request({ method: 'GET', url: '/hang', signal: shared.signal }), 'WFMCK_E_ABORTED');
});

test('bodies are rendered as evidence when first read: the same text as before, JSON and spreads see them, absent without a body', async () => {
  pool().intercept({ path: '/echo', method: 'POST' }).reply(200, '{"token":"abc","n":1}');
  const res = await transport().request({ method: 'POST', url: '/echo', json: { password: 'hunter2', n: 1 } });
  assert.equal(res.exchange.requestBody, '{"password":"<redacted>","n":1}');
  assert.doesNotMatch(JSON.stringify(res.exchange), /hunter2/);
  assert.equal({ ...res.exchange }.responseBody, res.exchange.responseBody);
  assert.ok(Object.keys(res.exchange).includes('responseBody'));
  pool().intercept({ path: '/empty' }).reply(204, '');
  const empty = await transport().request({ method: 'GET', url: '/empty' });
  assert.equal('requestBody' in empty.exchange || 'responseBody' in empty.exchange, false);
});

test('the whole-exchange deadline: a reply slower than timeoutMs is WFMCK_E_TIMEOUT', async () => {
  pool().intercept({ path: '/late' }).reply(200, 'late').delay(1000);
  const started = performance.now();
  const error = await rejects(transport({ timeoutMs: 100 }).request({ method: 'GET', url: '/late' }), 'WFMCK_E_TIMEOUT');
  assert.ok(performance.now() - started < 600);
  assert.ok(error.exchange.durationMs >= 90);
});

test('forTest shares connections and transcript under another test id', async () => {
  pool()
    .intercept({ path: '/f', headers: { [TEST_ID_HEADER]: 'B' } })
    .reply(200, '');
  const a = transport({ testId: 'A' });
  await a.forTest('B').request({ method: 'GET', url: '/f' });
  assert.equal(transcript.forTest('B').length, 1);
  assert.equal(transcript.forTest('A').length, 0);
});

test('without a transcript the exchange is made when first read, with the same record a transcript keeps', async () => {
  const headers = { 'content-type': 'application/json', authorization: 'Bearer secret-token' };
  for (let i = 0; i < 2; i++)
    pool()
      .intercept({ path: '/same', method: 'PUT' })
      .reply(409, '{"detail":"conflict"}', { headers: { 'x-answer': 'no' } });
  const recorded = await transport().request({ method: 'PUT', url: '/same', headers, json: { a: 1 } });
  const lazy = await createTransport({ baseUrl: ORIGIN, dispatcher: mock, retry: fast }).request({
    method: 'PUT',
    url: '/same',
    headers,
    json: { a: 1 },
  });
  assert.equal(transcript.all().length, 1, 'the transcript holds the first only');
  assert.equal(typeof lazy.durationMs, 'number');
  const made = lazy.exchange;
  assert.equal(lazy.exchange, made, 'made once, then kept');
  assert.equal(made.durationMs, lazy.durationMs);
  const comparable = ({ id: _id, startedAt: _at, durationMs: _ms, ...rest }: typeof made) => JSON.stringify(rest);
  assert.equal(comparable(made), comparable(recorded.exchange));
  assert.doesNotMatch(JSON.stringify(made), /secret-token/);
  assert.match(made.startedAt, /^\d{4}-\d\d-\d\dT/);
});
