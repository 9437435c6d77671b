// The device's trust bundle client (§4.5, §4.6 rules 1-7) against the reference identity role, and against hostile
// answers from a fake fetch: no X.509 anchor, jwt-svid only, http URIs, foreign trust domains and origins.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createRootCa, issueCertificate } from '../../protocol/pki.ts';
import { startIdentity, type IdentityService } from '../../reference/identity/server.ts';
import { TrustBundleClient, type BundleFetch } from '../../simulators/device/trust-bundle-client.ts';
import { createTransport, type UndiciTransport } from '../../simulators/transport/undici-transport.ts';
import type { TrustBundle } from '../../spec/types.ts';
import { clientVariant } from '../../simulators/faults/index.ts';

let identity: IdentityService;
let transport: UndiciTransport;
let realFetch: BundleFetch;

before(async () => {
  const ca = await createRootCa('bundle-client test TLS CA');
  const leaf = await issueCertificate(ca, { commonName: '127.0.0.1', ipAddresses: ['127.0.0.1'], usage: ['server'] });
  identity = await startIdentity({ tls: { cert: leaf.certPem, key: leaf.keyPem }, refreshHintSeconds: 60 });
  transport = createTransport({ ca: ca.certPem });
  realFetch = (url, headers) => transport.request({ method: 'GET', url, headers });
});
after(async () => {
  await transport.close();
  await identity.close();
});

function clock(start = 1_000_000) {
  const c = { now: start, tick: () => c.now };
  return c;
}

test('§4.5 §4.6: discovery, then the bundle: its x509-svid anchors are taken, the jwt-svid key is ignored', async () => {
  const c = clock();
  const client = new TrustBundleClient({
    fetch: realFetch,
    discoveryUrl: identity.discoveryUrl,
    operatorIntervalMs: 3_600_000,
    clock: c.tick,
  });
  assert.deepEqual(await client.refresh(), { result: 'accepted', anchors: 1 });
  assert.equal(client.trustBundleUri, identity.trustBundleUri);
  assert.equal(client.anchors![0]!.x5c, identity.bundle().keys.find((k) => k.use === 'x509-svid')!.x5c![0]);
  assert.equal(client.nextRefreshAt, c.now + 60_000, 'rule 4: spiffe_refresh_hint, in seconds');
  assert.deepEqual(await client.refresh(), { result: 'not-modified' }, 'If-None-Match with the ETag');
});

test('§4.6 rule 3: after a rotation the retrieved anchors replace the old ones, never combined', async () => {
  const client = new TrustBundleClient({ fetch: realFetch, trustBundleUri: identity.trustBundleUri, operatorIntervalMs: 1000 });
  await client.refresh();
  const before = client.anchors!.map((a) => a.x5c);
  await identity.hooks.rotateTrustAnchor({ phase: 'begin' });
  assert.deepEqual(await client.refresh(), { result: 'accepted', anchors: 2 }, 'the overlap holds both');
  await identity.hooks.rotateTrustAnchor({ phase: 'finish' });
  assert.deepEqual(await client.refresh(), { result: 'accepted', anchors: 1 });
  assert.ok(!before.includes(client.anchors![0]!.x5c), 'the old anchor is gone');
});

test('§4.6 rules 2 and 5: an unavailable or unreachable endpoint keeps the cached bundle', async () => {
  const client = new TrustBundleClient({ fetch: realFetch, trustBundleUri: identity.trustBundleUri, operatorIntervalMs: 1000 });
  await client.refresh();
  const anchors = client.anchors;
  identity.bundleAvailable(false);
  try {
    assert.equal((await client.refresh()).result, 'unreachable');
  } finally {
    identity.bundleAvailable(true);
  }
  const down = new TrustBundleClient({
    fetch: async () => {
      throw new Error('ECONNREFUSED');
    },
    trustBundleUri: identity.trustBundleUri,
    operatorIntervalMs: 1000,
  });
  down.anchors = anchors;
  assert.equal((await down.refresh()).result, 'unreachable');
  assert.equal(client.anchors, anchors);
  assert.equal(down.anchors, anchors);
});

/** A fake identity origin: `routes` maps URL -> [status, body, headers]. */
function fake(routes: Record<string, [number, unknown, Record<string, string>?]>, calls: string[] = []): BundleFetch {
  return async (url) => {
    calls.push(url);
    const [status, body, headers = {}] = routes[url] ?? [404, { error: 'not found' }];
    return { status, headers, body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)) };
  };
}

const BUNDLE = 'https://id.test/bundle.json';

test('§4.6 rule 1: a bundle with no X.509 anchor (only jwt-svid) is rejected: fail closed, or the old bundle kept', async () => {
  const jwtOnly: TrustBundle = { spiffe_sequence: 2, keys: [{ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA', use: 'jwt-svid', kid: 'k' }] };
  const fresh = new TrustBundleClient({ fetch: fake({ [BUNDLE]: [200, jwtOnly] }), trustBundleUri: BUNDLE, operatorIntervalMs: 1000 });
  const outcome = await fresh.refresh();
  assert.equal(outcome.result, 'rejected');
  assert.match((outcome as { reason: string }).reason, /§4\.6 rule 1/);
  assert.equal(fresh.anchors, undefined, 'nothing to validate SVIDs against');

  const held = new TrustBundleClient({ fetch: realFetch, trustBundleUri: identity.trustBundleUri, operatorIntervalMs: 1000 });
  await held.refresh();
  const anchors = held.anchors;
  for (const hostile of [jwtOnly, { keys: [] }, { keys: 'nope' }, 'not json {']) {
    const client = new TrustBundleClient({ fetch: fake({ [BUNDLE]: [200, hostile] }), trustBundleUri: BUNDLE, operatorIntervalMs: 1000 });
    client.anchors = anchors;
    assert.equal((await client.refresh()).result, 'rejected');
    assert.equal(client.anchors, anchors, 'rule 2: a rejected retrieval changes nothing');
  }
});

test('§4.6: a trust bundle URI that is not https is rejected and never fetched', async () => {
  const calls: string[] = [];
  const configured = new TrustBundleClient({
    fetch: fake({}, calls),
    trustBundleUri: 'http://id.test/bundle.json',
    operatorIntervalMs: 1000,
  });
  assert.equal((await configured.refresh()).result, 'misconfigured');
  const discovered = new TrustBundleClient({
    fetch: fake(
      { 'https://id.test/.well-known/platform': [200, { trustDomain: 'wfmck.test', trustBundleUri: 'http://id.test/bundle.json' }] },
      calls,
    ),
    discoveryUrl: 'https://id.test/.well-known/platform',
    operatorIntervalMs: 1000,
  });
  assert.equal((await discovered.refresh()).result, 'misconfigured');
  assert.ok(!calls.some((u) => u.startsWith('http:')));
});

test('§4.6 rule 4: the cadence is the refresh hint, else the operator interval; Cache-Control never defers it', async () => {
  const c = clock();
  const anchorBundle = identity.bundle();
  const longCache = { 'cache-control': 'max-age=86400', etag: '"x"' };
  const hinted = new TrustBundleClient({
    fetch: fake({ [BUNDLE]: [200, { ...anchorBundle, spiffe_refresh_hint: 30 }, longCache] }),
    trustBundleUri: BUNDLE,
    operatorIntervalMs: 999_000,
    clock: c.tick,
  });
  await hinted.refresh();
  assert.equal(hinted.nextRefreshAt, c.now + 30_000);
  const { spiffe_refresh_hint: _hint, ...noHint } = anchorBundle;
  const operator = new TrustBundleClient({
    fetch: fake({ [BUNDLE]: [200, noHint, longCache] }),
    trustBundleUri: BUNDLE,
    operatorIntervalMs: 45_000,
    clock: c.tick,
  });
  await operator.refresh();
  assert.equal(operator.nextRefreshAt, c.now + 45_000);
  assert.equal(operator.isDue(), false);
  c.now += 45_000;
  assert.equal(operator.isDue(), true);
  assert.notEqual(await operator.refreshIfDue(), undefined);
});

test("§4.6 rule 6: a discovery trust domain other than the client's own SPIFFE ID is a configuration error", async () => {
  const client = new TrustBundleClient({
    fetch: realFetch,
    discoveryUrl: identity.discoveryUrl,
    ownSpiffeId: 'spiffe://other.test/platform/wfm/w1/client/c1',
    operatorIntervalMs: 1000,
  });
  const outcome = await client.refresh();
  assert.equal(outcome.result, 'misconfigured');
  assert.match((outcome as { reason: string }).reason, /§4\.6 rule 6/);
  assert.equal(client.anchors, undefined);
  const own = new TrustBundleClient({
    fetch: realFetch,
    discoveryUrl: identity.discoveryUrl,
    ownSpiffeId: 'spiffe://wfmck.test/platform/wfm/w1/client/c1',
    operatorIntervalMs: 1000,
  });
  assert.equal((await own.refresh()).result, 'accepted');
});

test('§4.6 rule 7: a bundle on another origin needs initial-trust material for that origin', async () => {
  const routes = {
    'https://id.test/.well-known/platform': [
      200,
      { trustDomain: 'wfmck.test', trustBundleUri: 'https://elsewhere.test/b.json', extra: 'ignored' },
    ],
    'https://elsewhere.test/b.json': [200, identity.bundle()],
  } as Record<string, [number, unknown]>;
  const uncovered = new TrustBundleClient({
    fetch: fake(routes),
    discoveryUrl: 'https://id.test/.well-known/platform',
    operatorIntervalMs: 1000,
  });
  assert.equal((await uncovered.refresh()).result, 'misconfigured');
  const covered = new TrustBundleClient({
    fetch: fake(routes),
    discoveryUrl: 'https://id.test/.well-known/platform',
    coveredOrigins: ['https://elsewhere.test'],
    operatorIntervalMs: 1000,
  });
  assert.equal((await covered.refresh()).result, 'accepted', '§2.5: unknown discovery fields are ignored');
});

test("§4.6 rule 7: with a CA set as initial trust ('tls'), the fetch's handshake decides: a refused one keeps nothing", async () => {
  const routes = {
    'https://id.test/.well-known/platform': [200, { trustDomain: 'wfmck.test', trustBundleUri: 'https://elsewhere.test/b.json' }],
    'https://elsewhere.test/b.json': [200, identity.bundle()],
  } as Record<string, [number, unknown]>;
  const viaTls = new TrustBundleClient({
    fetch: fake(routes),
    discoveryUrl: 'https://id.test/.well-known/platform',
    coveredOrigins: 'tls',
    operatorIntervalMs: 1000,
  });
  assert.equal((await viaTls.refresh()).result, 'accepted');
  const refused: BundleFetch = async (url, headers) => {
    if (url.startsWith('https://elsewhere.test')) throw new Error('self-signed certificate in certificate chain');
    return fake(routes)(url, headers);
  };
  const untrusted = new TrustBundleClient({
    fetch: refused,
    discoveryUrl: 'https://id.test/.well-known/platform',
    coveredOrigins: 'tls',
    operatorIntervalMs: 1000,
  });
  assert.equal((await untrusted.refresh()).result, 'unreachable');
  assert.equal(untrusted.anchors, undefined, 'rule 1: no bundle, no anchors (fail closed)');
});

test('§4.6 rule 4: each refresh fault bends the cadence one way, and the faultless client ignores HTTP caching', async () => {
  const hinted = { ...identity.bundle(), spiffe_refresh_hint: 2 };
  const { spiffe_refresh_hint: _h, ...plain } = identity.bundle();
  const dayCache = { 'cache-control': 'max-age=86400' };
  const delay = async (bundle: unknown, faults: string[]) => {
    const c = clock();
    const client = new TrustBundleClient({
      fetch: fake({ [BUNDLE]: [200, bundle, dayCache] }),
      trustBundleUri: BUNDLE,
      operatorIntervalMs: 5_000,
      clock: c.tick,
      decisions: clientVariant(faults),
    });
    await client.refresh();
    return client.nextRefreshAt - c.now;
  };
  assert.equal(await delay(hinted, []), 2_000);
  assert.equal(await delay(plain, []), 5_000);
  assert.equal(await delay(hinted, ['BUNDLE-REFRESH-HINT']), 5_000);
  assert.ok((await delay(plain, ['BUNDLE-REFRESH-CONFIGURED'])) > 86_400_000);
  assert.equal(await delay(hinted, ['BUNDLE-REFRESH-CONFIGURED']), 2_000);
  assert.equal(await delay(hinted, ['BUNDLE-REFRESH-NOT-DEFERRED']), 86_400_000);
});

test('§4.5: without a discovery document (404) the operator-configured URI is used', async () => {
  const client = new TrustBundleClient({
    fetch: fake({ [BUNDLE]: [200, identity.bundle()] }),
    discoveryUrl: 'https://id.test/.well-known/platform',
    trustBundleUri: BUNDLE,
    operatorIntervalMs: 1000,
  });
  assert.equal((await client.refresh()).result, 'accepted');
});

test('§4.6 rule 5: a bundle cached before a restart validates at once, and stays in use while the endpoint is unreachable', async () => {
  const first = new TrustBundleClient({ fetch: realFetch, trustBundleUri: identity.trustBundleUri, operatorIntervalMs: 1000 });
  await first.refresh();
  const cached = first.snapshot();
  assert.ok(cached, 'an accepted bundle can be cached');
  const offline: BundleFetch = async () => {
    throw new Error('ECONNREFUSED');
  };
  const restarted = new TrustBundleClient({ fetch: offline, discoveryUrl: identity.discoveryUrl, operatorIntervalMs: 1000, cached });
  assert.deepEqual(
    restarted.anchors!.map((a) => a.x5c),
    first.anchors!.map((a) => a.x5c),
    'in use before any retrieval',
  );
  assert.equal((await restarted.refresh()).result, 'unreachable');
  assert.deepEqual(
    restarted.anchors!.map((a) => a.x5c),
    first.anchors!.map((a) => a.x5c),
    'kept while unreachable',
  );
});

test('§4.6 rule 1: a cached bundle is judged like a retrieved one: without an X.509 anchor it is never used', async () => {
  const jwtOnly = { spiffe_sequence: 1, keys: identity.bundle().keys.filter((k) => k.use !== 'x509-svid') } as TrustBundle;
  const client = new TrustBundleClient({
    fetch: realFetch,
    trustBundleUri: identity.trustBundleUri,
    operatorIntervalMs: 1000,
    cached: { bundle: jwtOnly, trustBundleUri: identity.trustBundleUri, etag: undefined },
  });
  assert.equal(client.anchors, undefined, 'fail closed');
  assert.equal(client.snapshot(), undefined, 'nothing to cache before a bundle is accepted');
});
