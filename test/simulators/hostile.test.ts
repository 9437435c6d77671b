// The transport against real hostile peers on 127.0.0.1: each fails with its WFMCK_E_ code within the deadline,
// leaves its exchange (with the error) in the transcript, and none can make the kit hang or hoard memory.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as hostile from '../../scripted/hostile-servers.ts';
import { Transcript } from '../../simulators/transport/transcript.ts';
import { createTransport, type TransportOptions } from '../../simulators/transport/undici-transport.ts';
import { TransportError, type TransportErrorCode } from '../../simulators/transport/types.ts';

const TIMEOUT_MS = 400;
/** Generous on purpose: a loaded CI machine must not turn a correct deadline into a flaky failure. */
const MARGIN_MS = 1200;

const servers: hostile.HostileServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function serve<T extends hostile.HostileServer>(start: () => Promise<T>): Promise<T> {
  const server = await start();
  servers.push(server);
  return server;
}

async function expectFailure(url: string, code: TransportErrorCode, opts: TransportOptions = {}, method = 'GET') {
  const transcript = new Transcript();
  const transport = createTransport({ timeoutMs: TIMEOUT_MS, transcript, testId: 'hostile', ...opts });
  const started = performance.now();
  try {
    const error = await transport.request({ method, url }).then(
      () => assert.fail(`expected ${code}`),
      (e: unknown) => e,
    );
    const elapsed = performance.now() - started;
    assert.ok(error instanceof TransportError, String(error));
    assert.equal(error.code, code, error.message);
    assert.ok(elapsed < TIMEOUT_MS + MARGIN_MS, `took ${elapsed} ms`);
    const recorded = transcript.forTest('hostile');
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0]!.error?.code, code);
    assert.equal(recorded[0]!.id, error.exchange.id);
    return { error, elapsed };
  } finally {
    await transport.close();
  }
}

test('a peer that accepts and never answers: WFMCK_E_TIMEOUT at the deadline', async () => {
  const s = await serve(hostile.hangServer);
  const { elapsed } = await expectFailure(s.url, 'WFMCK_E_TIMEOUT');
  assert.ok(elapsed >= TIMEOUT_MS - 20, `gave up early: ${elapsed} ms`);
});

test('a peer that resets the connection: WFMCK_E_CONNECTION, fast', async () => {
  const s = await serve(hostile.resetServer);
  const { error } = await expectFailure(s.url, 'WFMCK_E_CONNECTION');
  assert.match(error.message, /ECONNRESET|other side closed/);
});

test('a refused connection: WFMCK_E_CONNECTION; an idempotent retry tries again and records each attempt', async () => {
  const url = await hostile.refusedUrl();
  await expectFailure(url, 'WFMCK_E_CONNECTION');
  const transcript = new Transcript();
  const transport = createTransport({ transcript, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 10 } });
  await assert.rejects(transport.request({ method: 'GET', url, retry: 'idempotent' }), { code: 'WFMCK_E_CONNECTION' });
  assert.deepEqual(
    transcript.all().map((x) => x.attempt),
    [1, 2, 3],
  );
  await transport.close();
});

test('a peer that speaks garbage instead of HTTP: WFMCK_E_PROTOCOL', async () => {
  const s = await serve(hostile.garbageServer);
  await expectFailure(s.url, 'WFMCK_E_PROTOCOL');
});

test('Content-Length 100 but 10 bytes, then close: WFMCK_E_PROTOCOL with the status seen', async () => {
  const s = await serve(hostile.shortBodyServer);
  const { error } = await expectFailure(s.url, 'WFMCK_E_PROTOCOL');
  assert.equal(error.exchange.status, 200);
  assert.match(error.message, /10 of the 100 bytes/);
});

test('Content-Length 10 but 100 bytes: the 10 announced bytes, and the surplus never poisons the next response', async () => {
  const s = await serve(hostile.longBodyServer);
  const transport = createTransport({ timeoutMs: TIMEOUT_MS });
  try {
    for (const path of ['/first', '/second']) {
      const res = await transport.request({ method: 'GET', url: s.url + path });
      assert.equal(res.status, 200);
      assert.equal(res.text(), '0123456789');
    }
  } finally {
    await transport.close();
  }
});

test('an endless body: WFMCK_E_RESPONSE_TOO_LARGE at the cap, without hoarding memory', async () => {
  const s = await serve(hostile.endlessBodyServer);
  const before = process.memoryUsage().rss;
  const { error } = await expectFailure(s.url, 'WFMCK_E_RESPONSE_TOO_LARGE', { maxResponseBytes: 256 * 1024 });
  assert.match(error.message, /256|262144/);
  const grown = process.memoryUsage().rss - before;
  assert.ok(grown < 64 * 1024 * 1024, `RSS grew by ${grown} bytes`);
});

test('a body that drips a byte at a time forever: WFMCK_E_TIMEOUT at the whole-exchange deadline', async () => {
  const s = await serve(hostile.drippingBodyServer);
  const { error, elapsed } = await expectFailure(s.url, 'WFMCK_E_TIMEOUT');
  assert.match(error.message, /reading the body \(\d+ bytes so far\)/);
  assert.ok(elapsed >= TIMEOUT_MS - 20, `gave up early: ${elapsed} ms`);
});

test('a Content-Length of a terabyte: refused before reading the body', async () => {
  const s = await serve(hostile.hugeContentLengthServer);
  const { error, elapsed } = await expectFailure(s.url, 'WFMCK_E_RESPONSE_TOO_LARGE');
  assert.match(error.message, /Content-Length 1099511627776/);
  assert.ok(elapsed < TIMEOUT_MS, `waited ${elapsed} ms instead of failing early`);
});

test('headers that trickle in forever (slowloris): WFMCK_E_TIMEOUT at the deadline', async () => {
  const s = await serve(hostile.slowHeadersServer);
  await expectFailure(s.url, 'WFMCK_E_TIMEOUT');
});

test('TLS with a certificate from an untrusted CA: WFMCK_E_TLS with the OpenSSL reason; trusted, it answers', async () => {
  const s = await serve(hostile.untrustedTlsServer);
  const { error } = await expectFailure(s.url, 'WFMCK_E_TLS');
  assert.match(error.message, /unable to verify|self.signed|certificate/i);
  const trusting = createTransport({ ca: s.caPem, timeoutMs: TIMEOUT_MS });
  assert.equal((await trusting.request({ method: 'GET', url: s.url })).text(), 'ok');
  await trusting.close();
});

test('TLS to a name the certificate does not carry: WFMCK_E_TLS', async () => {
  const s = await serve(hostile.untrustedTlsServer);
  await expectFailure(s.url.replace('127.0.0.1', 'localhost'), 'WFMCK_E_TLS', { ca: s.caPem });
});

test('the caller aborting a hung request: WFMCK_E_ABORTED, at once', async () => {
  const s = await serve(hostile.hangServer);
  const transport = createTransport({ timeoutMs: 5_000 });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const started = performance.now();
  await assert.rejects(transport.request({ method: 'GET', url: s.url, signal: controller.signal }), { code: 'WFMCK_E_ABORTED' });
  assert.ok(performance.now() - started < 1000);
  await transport.close();
});

test('a request queued behind a hung one on the only connection: WFMCK_E_TIMEOUT at its own deadline, not the first one', async () => {
  const s = await serve(hostile.hangServer);
  const transport = createTransport({ connections: 1 });
  const first = new AbortController();
  const hung = transport.request({ method: 'GET', url: s.url, timeoutMs: 30_000, signal: first.signal }).catch((e: unknown) => e);
  const started = performance.now();
  await assert.rejects(transport.request({ method: 'GET', url: s.url, timeoutMs: TIMEOUT_MS }), { code: 'WFMCK_E_TIMEOUT' });
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= TIMEOUT_MS - 20 && elapsed < TIMEOUT_MS + MARGIN_MS, `took ${elapsed} ms`);
  first.abort();
  assert.equal(((await hung) as TransportError).code, 'WFMCK_E_ABORTED');
  await transport.close();
});

test('an informational 103 before the answer: the answer, with its own headers', async () => {
  const server = createServer((_req, res) => {
    res.writeEarlyHints({ link: '</style.css>; rel=preload' });
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const transport = createTransport({ timeoutMs: TIMEOUT_MS });
    const res = await transport.request({ method: 'GET', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` });
    assert.equal(res.status, 200);
    assert.equal(res.text(), 'ok');
    assert.equal(res.headers['link'], undefined);
    await transport.close();
  } finally {
    server.close();
  }
});
