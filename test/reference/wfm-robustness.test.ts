// P6 and §7 on hostile input: every refusal is a 4xx with a JSON `error`, never a 5xx, and the WFM keeps answering.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { connect } from 'node:tls';
import fc from 'fast-check';
import { request } from 'undici';
import { call, capabilitiesPath, hostingDoc, onboarded, startHarness, type Answer, type Device, type Harness } from './wfm-harness.ts';

const seed = process.env.WFMCK_SEED ? Number(process.env.WFMCK_SEED) : undefined;
let h: Harness;
let device: Device;
before(async () => {
  h = await startHarness({ bodyTimeoutMs: 300 });
  ({ device } = await onboarded(h));
});
after(() => h.close());

function refused(res: Answer, status: number, what: string): void {
  assert.equal(res.status, status, `${what}: ${res.text.slice(0, 200)}`);
  assert.match(String(res.headers['content-type']), /^application\/json/, what);
  assert.equal(typeof res.json?.error, 'string', what);
}

async function stillAnswers(): Promise<void> {
  const res = await call(h, { method: 'GET', path: '/api/v1/onboarding/certificate' });
  assert.equal(res.status, 200);
}

test('P6 unknown paths are 404 JSON; a wrong method is 405 JSON with Allow', async () => {
  for (const path of [
    '/',
    '/api',
    '/api/v1/capabilities',
    '/api/v2/capabilities/dev1',
    '/api/v1/nope%zz',
    '/api/v1/deployments/x/status/more',
  ]) {
    refused(await call(h, { method: 'GET', path }), 404, path);
  }
  const res = await call(h, { method: 'POST', path: capabilitiesPath('dev1'), body: {} });
  refused(res, 405, 'POST capabilities');
  assert.equal(res.headers['allow'], 'PUT, DELETE');
  refused(await call(h, { method: 'GET', path: '/api/v1/onboarding' }), 405, 'GET onboarding');
  await stillAnswers();
});

test('§7 400 for bodies that are not a JSON object, whatever their shape', async () => {
  const bodies = ['', 'not json', '{', 'null', '[]', '[1,2]', '42', 'true', '"s"', '\u0000\u00ff', '{"properties": 7}'];
  for (const body of bodies) {
    refused(await call(h, { method: 'PUT', path: capabilitiesPath('dev1'), body, device }), 400, `PUT ${JSON.stringify(body)}`);
    refused(await call(h, { method: 'POST', path: '/api/v1/onboarding', body, device }), 400, `onboarding ${JSON.stringify(body)}`);
  }
  await stillAnswers();
});

test('§7 400 for deeply nested JSON', async () => {
  const deep = '{"properties":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
  refused(await call(h, { method: 'PUT', path: capabilitiesPath('dev1'), body: deep, device }), 400, 'deep');
  await stillAnswers();
});

test('§4.1 400 for bad percent-encoding in a path parameter', async () => {
  for (const path of ['/api/v1/capabilities/%zz', '/api/v1/capabilities/gw/%E0%A4%A', '/api/v1/deployments/%zz/status']) {
    refused(await call(h, { method: path.includes('status') ? 'POST' : 'PUT', path, body: {}, device }), 400, path);
  }
  await stillAnswers();
});

test('§8 413 for a 2 MiB body, declared or chunked, without buffering it', async () => {
  const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
  refused(await call(h, { method: 'PUT', path: capabilitiesPath('dev1'), body: big, device }), 413, 'declared');
  async function* chunks() {
    for (let i = 0; i < 32; i++) yield big.subarray(i * 65536, (i + 1) * 65536);
  }
  const res = await request(h.wfm.url + capabilitiesPath('dev1'), { dispatcher: h.agent, method: 'PUT', body: Readable.from(chunks()) });
  assert.equal(res.statusCode, 413);
  assert.equal(typeof ((await res.body.json()) as { error: unknown }).error, 'string');
  await stillAnswers();
});

test('408 for a body that stalls, and the connection is closed', async () => {
  const { port } = new URL(h.wfm.url);
  const socket = connect({ host: '127.0.0.1', port: Number(port), ca: h.rootCa.certPem, servername: undefined });
  const received: Buffer[] = [];
  socket.on('data', (d) => received.push(d));
  await new Promise<void>((resolve) => socket.once('secureConnect', () => resolve()));
  socket.write(
    `PUT ${capabilitiesPath('dev1')} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"prop`,
  );
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const text = Buffer.concat(received).toString('utf8');
  assert.match(text, /^HTTP\/1\.1 408 /);
  assert.match(text, /"error":/);
  await stillAnswers();
});

test('wrong types in every body are 4xx, never 5xx', async () => {
  const id = '11111111-2222-4333-8444-555555555555';
  const cases: [string, string, unknown][] = [
    ['PUT', capabilitiesPath('dev1'), { properties: { id: 1, vendor: [], modelNumber: {}, serialNumber: null } }],
    ['PUT', capabilitiesPath('dev1'), hostingDoc('dev1', { cpus: [{ cores: 'many' }] as never })],
    ['PUT', capabilitiesPath('dev1'), hostingDoc('dev1', {}, { labels: 'none' })],
    ['POST', `/api/v1/deployments/${id}/status`, { deploymentId: 5, adoptedManifestVersion: {}, status: 'ok', components: {} }],
    ['POST', '/api/v1/onboarding', { apiVersion: 1, kind: 'OnboardingRequest', certificate: ['x'] }],
  ];
  for (const [method, path, body] of cases) {
    const res = await call(h, { method, path, body, device });
    assert.ok(res.status >= 400 && res.status < 500, `${method} ${path}: ${res.status}`);
    assert.equal(typeof res.json?.error, 'string');
  }
  await stillAnswers();
});

test('property: arbitrary JSON bodies and deviceIds never produce a 5xx', async () => {
  const segment = fc.oneof(fc.stringMatching(/^[A-Za-z0-9._~-]{1,8}$/), fc.constantFrom('%zz', '%2F', '..', '.', '%41', 'a b', ''));
  await fc.assert(
    fc.asyncProperty(
      fc.array(segment, { minLength: 1, maxLength: 3 }),
      fc.json({ maxDepth: 4 }),
      fc.constantFrom('PUT', 'DELETE'),
      async (segments, body, method) => {
        const path = `/api/v1/capabilities/${segments.map((s) => s.replace(/ /g, '%20')).join('/')}`;
        const res = await call(h, { method, path, body, device });
        assert.ok(res.status < 500, `${method} ${path} ${body} -> ${res.status} ${res.text}`);
        if (res.status >= 400) assert.equal(typeof res.json?.error, 'string');
      },
    ),
    { seed, numRuns: 60 },
  );
  await stillAnswers();
});
