// Issues 18 and 33: the network policy holds through a peer's redirects and upload Locations. A registry on 127.0.0.1
// that sends every upload and every read to http://refused.invalid/ (neither named nor loopback) makes publish, lint
// and the registry persona refuse in the policy's words, and no process of the kit (the CLI, each Playwright worker)
// ever tries to connect there (a preloaded watcher logs attempts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWfmck } from '../support/wfmck-cli.ts';

const ELSEWHERE = 'http://refused.invalid';
const WATCHER = fileURLToPath(new URL('../support/watch-connects.mjs', import.meta.url));
const HELLO_COMPOSE = fileURLToPath(new URL('../../fixtures/packages/hello-compose', import.meta.url));
const RULE = /refused\.invalid is neither a named target nor on loopback; the kit sends traffic only to the hosts you name and to loopback/;

async function redirectingRegistry(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/v2/' || path === '/v2') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    if (req.method === 'HEAD') return void res.writeHead(404).end();
    if (req.method === 'POST' && path.includes('/blobs/uploads/'))
      return void res.writeHead(202, { location: `${ELSEWHERE}/upload/1` }).end();
    res.writeHead(307, { location: `${ELSEWHERE}${path}` }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function watched(): { env: Record<string, string>; attempts: () => string } {
  const file = join(mkdtempSync(join(tmpdir(), 'wfmck-connects-')), 'connects.log');
  return {
    env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${WATCHER}`.trim(), WFMCK_WATCH_CONNECTS: file },
    attempts: () => (existsSync(file) ? readFileSync(file, 'utf8') : ''),
  };
}

test(
  'publish: an upload Location to a host neither named nor on loopback is refused, naming the rule; no connection is attempted',
  { timeout: 60_000 },
  async (t) => {
    const { url, server } = await redirectingRegistry();
    t.after(() => server.close());
    const w = watched();
    const r = await runWfmck(
      ['publish', 'compose', HELLO_COMPOSE, '--registry', url, '--repository', 'acme/hello', '--version', '1.0.0'],
      w.env,
    );
    assert.notEqual(r.code, 0, r.stdout);
    assert.match(r.stdout + r.stderr, RULE);
    assert.equal(w.attempts(), '', 'no socket towards refused.invalid');
  },
);

test(
  'lint oci://: a manifest redirected to a host neither named nor on loopback is refused, naming the rule; no connection is attempted',
  { timeout: 60_000 },
  async (t) => {
    const { url, server } = await redirectingRegistry();
    t.after(() => server.close());
    const w = watched();
    const r = await runWfmck(['lint', `oci://${new URL(url).host}/acme/hello:1.0.0`], w.env);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, RULE);
    assert.equal(w.attempts(), '');
  },
);

test(
  'the registry persona: every push and read redirected to a host neither named nor on loopback is refused with evidence; no connection is attempted',
  { timeout: 300_000 },
  async (t) => {
    const { url, server } = await redirectingRegistry();
    t.after(() => server.close());
    const w = watched();
    const out = join(mkdtempSync(join(tmpdir(), 'wfmck-redirect-run-')), 'out');
    const r = await runWfmck(['run', '--persona', 'registry', '--registry', url, '--out', out], w.env);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const report = readFileSync(join(out, 'conformance.json'), 'utf8');
    assert.match(report, RULE);
    assert.equal(w.attempts(), '');
  },
);
