// P10 on the wire: a 429 with Retry-After holds that request (method and URL) until the time it names; the transport's
// own retries never come sooner, and a transport told to ignore Retry-After (the faulty client) sends at once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTransport } from '../../simulators/transport/undici-transport.ts';
import { TransportError } from '../../simulators/transport/types.ts';

let server: Server;
let base: string;
const hits: string[] = [];

before(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (req.url === '/busy')
      return void res.writeHead(429, { 'retry-after': '30', 'content-type': 'application/problem+json' }).end('{"status":429}');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

test('a 429 with Retry-After beyond the retry policy is returned at once, and the same request is then held; others go out', async () => {
  const t = createTransport({ baseUrl: base });
  hits.length = 0;
  const first = await t.request({ method: 'GET', url: '/busy', retry: 'idempotent' });
  assert.equal(first.status, 429);
  assert.deepEqual(hits, ['GET /busy'], 'no retry sooner than Retry-After: 30');
  await assert.rejects(
    t.request({ method: 'GET', url: '/busy', retry: 'idempotent' }),
    (e: unknown) => e instanceof TransportError && e.code === 'WFMCK_E_HELD' && /Retry-After/.test(e.message),
  );
  assert.equal((await t.request({ method: 'GET', url: '/other' })).status, 200, 'another request is not held');
  assert.deepEqual(hits, ['GET /busy', 'GET /other']);
  await t.close();
});

test('honourRetryAfter false (client fault MIAF-CLIENT-HONOURS-RETRY-AFTER): the request goes out again at once', async () => {
  const t = createTransport({ baseUrl: base, honourRetryAfter: false, retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 } });
  hits.length = 0;
  assert.equal((await t.request({ method: 'GET', url: '/busy' })).status, 429);
  assert.equal((await t.request({ method: 'GET', url: '/busy' })).status, 429);
  assert.deepEqual(hits, ['GET /busy', 'GET /busy']);
  await t.close();
});
