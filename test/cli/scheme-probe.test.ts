// Issue 32, symptom 5: `--wfm http://` to a port that speaks TLS passed the pre-flight and ended 64 s later as
// "UND_ERR_SOCKET: other side closed", NOT CONFORMANT. Now the pre-flight names the scheme meant, exit 2 in seconds;
// and a server that speaks the scheme it is named with is never a false alarm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createTcpServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schemeProblem, withScheme } from '../../cli/scheme-probe.ts';
import { createRootCa, issueCertificate } from '../../protocol/pki.ts';
import { runWfmck } from '../support/wfmck-cli.ts';

const ca = await createRootCa('scheme-probe test CA');
const leaf = await issueCertificate(ca, { commonName: '127.0.0.1', ipAddresses: ['127.0.0.1'] });
const TLS_OPTIONS = { cert: leaf.certPem, key: leaf.keyPem };

/** Listens on a free loopback port, closed after the test. */
async function listening(t: { after(fn: () => void): void }, server: Server): Promise<{ port: number }> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => server.close());
  return { port: (server.address() as { port: number }).port };
}

const plainHttp = (status = 200) =>
  createHttpServer((_, res) => {
    res.statusCode = status;
    res.end('plain');
  });

test('withScheme: the other scheme with the port kept, the path kept, no trailing slash', () => {
  assert.equal(withScheme(new URL('http://127.0.0.1:8443'), 'https:'), 'https://127.0.0.1:8443');
  assert.equal(withScheme(new URL('https://127.0.0.1:5000/v2'), 'http:'), 'http://127.0.0.1:5000/v2');
  assert.equal(withScheme(new URL('http://127.0.0.1'), 'https:'), 'https://127.0.0.1:80');
  assert.equal(withScheme(new URL('https://[::1]:443'), 'http:'), 'http://[::1]:443');
});

test('http:// to a TLS port: "speaks TLS", naming the https:// URL', async (t) => {
  const { port } = await listening(
    t,
    createHttpsServer(TLS_OPTIONS, (_, res) => res.end()),
  );
  assert.equal(await schemeProblem(new URL(`http://127.0.0.1:${port}`)), `speaks TLS: did you mean https://127.0.0.1:${port}?`);
});

test('http:// to a TLS port that wants a client certificate (TLS 1.2: the server ends the handshake with an alert)', async (t) => {
  const server = createHttpsServer({ ...TLS_OPTIONS, maxVersion: 'TLSv1.2', requestCert: true, rejectUnauthorized: true, ca: ca.certPem });
  const { port } = await listening(t, server);
  assert.equal(await schemeProblem(new URL(`http://127.0.0.1:${port}`)), `speaks TLS: did you mean https://127.0.0.1:${port}?`);
});

test("http:// to a TLS server that answers plain HTTP with a canned 400 (Go's, nginx's): the handshake decides", async (t) => {
  const tls = await listening(
    t,
    createHttpsServer(TLS_OPTIONS, (_, res) => res.end()),
  );
  // One port, both answers: a TLS ClientHello goes through to the TLS server, anything else gets Go's canned 400.
  const server = createTcpServer((socket) =>
    socket.once('data', (first: Buffer) => {
      if (first[0] !== 0x16) return void socket.end('HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n');
      const upstream = connect(tls.port, '127.0.0.1', () => upstream.write(first));
      socket.pipe(upstream).pipe(socket);
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    }),
  );
  const { port } = await listening(t, server);
  assert.equal(await schemeProblem(new URL(`http://127.0.0.1:${port}`)), `speaks TLS: did you mean https://127.0.0.1:${port}?`);
});

test('https:// to a plain HTTP port: "answers plain HTTP", naming the http:// URL', async (t) => {
  const { port } = await listening(t, plainHttp());
  assert.equal(
    await schemeProblem(new URL(`https://127.0.0.1:${port}/registry`)),
    `answers plain HTTP, not TLS: did you mean http://127.0.0.1:${port}/registry?`,
  );
});

test('no false alarm: plain HTTP named http:// (one GET, no TLS bytes sent), TLS named https://, with or without a client certificate wanted', async (t) => {
  const server = plainHttp();
  const seen = { requests: 0, clientErrors: 0 };
  server.on('request', () => (seen.requests += 1)).on('clientError', () => (seen.clientErrors += 1));
  const plain = await listening(t, server);
  assert.equal(await schemeProblem(new URL(`http://127.0.0.1:${plain.port}`)), undefined);
  assert.deepEqual(seen, { requests: 1, clientErrors: 0 }, 'a correct plain server gets one GET and no ClientHello');
  const tls = await listening(
    t,
    createHttpsServer(TLS_OPTIONS, (_, res) => res.end()),
  );
  assert.equal(await schemeProblem(new URL(`https://127.0.0.1:${tls.port}`)), undefined);
  const mtls = await listening(
    t,
    createHttpsServer({ ...TLS_OPTIONS, maxVersion: 'TLSv1.2', requestCert: true, rejectUnauthorized: true, ca: ca.certPem }),
  );
  assert.equal(await schemeProblem(new URL(`https://127.0.0.1:${mtls.port}`)), undefined);
});

test('no false alarm: a plain server that answers 400 to everything, one that closes at once, one that never answers', async (t) => {
  const bad = await listening(t, plainHttp(400));
  assert.equal(await schemeProblem(new URL(`http://127.0.0.1:${bad.port}`)), undefined, 'a 400 without a TLS handshake is plain HTTP');
  const closing = await listening(
    t,
    createTcpServer((s) => s.end()),
  );
  assert.equal(await schemeProblem(new URL(`http://127.0.0.1:${closing.port}`), 500), undefined);
  assert.equal(await schemeProblem(new URL(`https://127.0.0.1:${closing.port}`), 500), undefined);
  const silent = await listening(
    t,
    createTcpServer(() => undefined),
  );
  const started = Date.now();
  assert.equal(await schemeProblem(new URL(`http://127.0.0.1:${silent.port}`), 500), undefined);
  assert.ok(Date.now() - started < 2_000, 'bounded by the probe timeouts');
});

test(
  'wfmck run --wfm http:// to a TLS port: exit 2 within seconds naming https://, before anything runs',
  { timeout: 60_000 },
  async (t) => {
    const { port } = await listening(
      t,
      createHttpsServer(TLS_OPTIONS, (_, res) => res.end()),
    );
    const out = join(mkdtempSync(join(tmpdir(), 'wfmck-scheme-')), 'out');
    const started = Date.now();
    const r = await runWfmck(['run', '--wfm', `http://127.0.0.1:${port}`, '--out', out]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(
      r.stderr,
      `wfmck run: WFMCK_E_SCHEME: wrong scheme: WFM http://127.0.0.1:${port} speaks TLS: did you mean https://127.0.0.1:${port}?\n`,
    );
    assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
    assert.equal(existsSync(join(out, 'conformance.json')), false, 'no run, no report');
  },
);

test('wfmck run --registry https:// to a plain HTTP port: exit 2 naming http://', { timeout: 60_000 }, async (t) => {
  const { port } = await listening(t, plainHttp());
  const r = await runWfmck(['run', '--registry', `https://127.0.0.1:${port}`, '--out', join(tmpdir(), 'wfmck-scheme-never')]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    new RegExp(`registry https://127\\.0\\.0\\.1:${port} answers plain HTTP, not TLS: did you mean http://127\\.0\\.0\\.1:${port}\\?`),
  );
});

test('wfmck doctor names the scheme meant, as run does', { timeout: 60_000 }, async (t) => {
  const { port } = await listening(
    t,
    createHttpsServer(TLS_OPTIONS, (_, res) => res.end()),
  );
  const r = await runWfmck(['doctor', '--wfm', `http://127.0.0.1:${port}`]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    new RegExp(`^FAIL {2}WFM http://127\\.0\\.0\\.1:${port} speaks TLS: did you mean https://127\\.0\\.0\\.1:${port}\\?$`, 'm'),
  );
});
