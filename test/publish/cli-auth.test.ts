// `wfmck publish` credentials: basic, a bearer token, and the registry's token endpoint after a 401 Bearer challenge.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRegistryHandler, RegistryStore } from '../../reference/registry/server.ts';
import { HELLO_APP, wfmck } from './helpers.ts';

const BASIC = `Basic ${Buffer.from('dev:s3cret').toString('base64')}`;
const TOKEN = 'tok-123';

/** The reference registry behind a gate: `basic` wants Basic credentials, `token` a bearer token from its /token. */
async function gatedRegistry(mode: 'basic' | 'token'): Promise<{ url: string; server: Server; store: RegistryStore }> {
  const store = new RegistryStore();
  const registry = createRegistryHandler(store);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const auth = req.headers.authorization;
    const origin = `http://${req.headers.host}`;
    if (req.url?.startsWith('/token')) {
      res.writeHead(auth === BASIC ? 200 : 401, { 'Content-Type': 'application/json' });
      return void res.end(auth === BASIC ? JSON.stringify({ token: TOKEN }) : '{}');
    }
    if (auth === (mode === 'basic' ? BASIC : `Bearer ${TOKEN}`)) return registry(req, res);
    const challenge =
      mode === 'basic'
        ? 'Basic realm="wfmck"'
        : `Bearer realm="${origin}/token",service="wfmck-test",scope="repository:auth/app:pull,push"`;
    res.writeHead(401, { 'WWW-Authenticate': challenge, 'Content-Type': 'application/json' });
    res.end('{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, store };
}

let basic: Awaited<ReturnType<typeof gatedRegistry>>;
let token: Awaited<ReturnType<typeof gatedRegistry>>;
before(async () => {
  [basic, token] = await Promise.all([gatedRegistry('basic'), gatedRegistry('token')]);
});
after(() => Promise.all([basic, token].map((r) => new Promise((resolve) => r?.server.close(resolve)))));

const publishTo = (url: string, ...args: string[]) =>
  wfmck(['publish', 'app', HELLO_APP, '--registry', url, '--repository', 'auth/app', ...args], { WFMCK_REGISTRY_PASSWORD: 's3cret' });

test('anonymous push to a registry that wants credentials fails with the 401 it got (exit 2)', async () => {
  const run = await publishTo(basic.url);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /WFMCK_E_PUBLISH_PUSH: .*HTTP 401/);
});

test('--username with WFMCK_REGISTRY_PASSWORD pushes with Basic credentials', async () => {
  const run = await publishTo(basic.url, '--username', 'dev');
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(basic.store.tags('auth/app'), ['1.0.0']);
});

test('--username against a Bearer challenge fetches a token from the realm and pushes with it', async () => {
  const run = await publishTo(token.url, '--username', 'dev');
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(token.store.tags('auth/app'), ['1.0.0']);
});

test('--token pushes with that bearer token directly', async () => {
  token.store.reset();
  const run = await publishTo(token.url, '--token', TOKEN);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(token.store.tags('auth/app'), ['1.0.0']);
});
