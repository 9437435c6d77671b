// Registry authentication (interfaces.md §5 recommends a token service): the distribution token flow after a
// 401 Bearer challenge, basic credentials, a static bearer token; secrets never reach the transcript.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createRootCa, issueCertificate } from '../../protocol/pki.ts';
import { RegistryStore, createRegistryHandler } from '../../reference/registry/server.ts';
import { RegistryClient, type RegistryAuth } from '../../simulators/registry-client.ts';
import { Transcript } from '../../simulators/transport/transcript.ts';
import { createTransport, type UndiciTransport } from '../../simulators/transport/undici-transport.ts';

const USER = 'developer';
const PASSWORD = 's3cret';
const TOKEN = 'tok-7f3a';
let server: Server;
let url: string;
let transport: UndiciTransport;
const transcript = new Transcript();
const tokenRequests: URLSearchParams[] = [];

/** A registry that wants `Bearer <TOKEN>`, with its token endpoint at /token on the same origin (basic auth). */
before(async () => {
  const ca = await createRootCa('auth test root');
  const leaf = await issueCertificate(ca, { commonName: 'registry', ipAddresses: ['127.0.0.1'], usage: ['server'] });
  const registry = createRegistryHandler(new RegistryStore());
  const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
  server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (req, res) => {
    const target = new URL(req.url ?? '/', 'https://x');
    if (target.pathname === '/token') {
      tokenRequests.push(target.searchParams);
      const ok = req.headers.authorization === basic;
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      return res.end(ok ? JSON.stringify({ token: TOKEN, expires_in: 300 }) : '{}');
    }
    if (req.headers.authorization === `Bearer ${TOKEN}`) return registry(req, res);
    const name = /^\/v2\/(.+?)\/(?:blobs|manifests|tags)\//.exec(target.pathname)?.[1] ?? 'catalog';
    res.writeHead(401, {
      'www-authenticate': `Bearer realm="${url}/token",service="registry.test",scope="repository:${name}:pull,push"`,
      'content-type': 'application/json',
    });
    res.end('{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  transport = createTransport({ baseUrl: url, ca: ca.certPem, transcript, timeoutMs: 3_000 });
});
after(async () => {
  await transport.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const clientWith = (auth: RegistryAuth) => new RegistryClient({ transport, auth });
const bytes = new TextEncoder().encode('package part');

test('a 401 Bearer challenge fetches a token from the realm with service and scope, then retries once', async () => {
  tokenRequests.length = 0;
  const client = clientWith({ kind: 'basic', username: USER, password: PASSWORD });
  const pushed = await client.pushBlob('acme/shop', bytes);
  assert.ok(pushed.ok, pushed.response.text());
  assert.equal((await client.getBlob('acme/shop', pushed.digest)).response.status, 200);
  assert.equal(tokenRequests.length, 1, 'the token is reused');
  assert.equal(tokenRequests[0]!.get('service'), 'registry.test');
  assert.equal(tokenRequests[0]!.get('scope'), 'repository:acme/shop:pull,push');
});

test('a token service that refuses the credentials leaves the 401 to the caller', async () => {
  const client = clientWith({ kind: 'basic', username: USER, password: 'wrong' });
  const res = await client.headBlob('acme/shop', `sha256:${'0'.repeat(64)}`);
  assert.equal(res.status, 401);
});

test('anonymous: the token request carries no credentials, and its refusal is answered with the 401', async () => {
  const res = await clientWith({ kind: 'anonymous' }).listTags('acme/shop');
  assert.equal(res.response.status, 401);
  const tokenCall = transcript.all().findLast((x) => x.url.includes('/token'));
  assert.equal(tokenCall?.requestHeaders['authorization'], undefined);
});

test('a static bearer token is sent as is, without the token flow', async () => {
  tokenRequests.length = 0;
  const res = await clientWith({ kind: 'bearer', token: TOKEN }).listTags('acme/none');
  assert.equal(res.response.status, 404);
  assert.equal(tokenRequests.length, 0);
});

test('the transcript never holds the password or the token', () => {
  const dump = JSON.stringify(transcript.all());
  assert.ok(!dump.includes(TOKEN), 'token leaked');
  assert.ok(!dump.includes(Buffer.from(`${USER}:${PASSWORD}`).toString('base64')), 'basic credentials leaked');
  assert.ok(dump.includes('<redacted>'));
});
