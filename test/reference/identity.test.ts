// The reference identity role over HTTPS: discovery (§2.5, §4.5) and trust bundle (§2.6, §4.6).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { exportJWK, importX509 } from 'jose';
import { x509 } from '../../spec/x509.ts';
import { issueCertificate } from '../../protocol/pki.ts';
import { startIdentity } from '../../reference/identity/server.ts';
import type { BundleJwk, TrustBundle } from '../../spec/types.ts';
import { identityFixture, type IdentityFixture } from './identity-fixture.ts';

const x509Keys = (b: TrustBundle) => b.keys.filter((k) => k.use === 'x509-svid');
const pemOf = (der: string) => `-----BEGIN CERTIFICATE-----\n${der}\n-----END CERTIFICATE-----`;

describe('discovery document (§4.5)', () => {
  let f: IdentityFixture;
  before(async () => (f = await identityFixture()));
  after(() => f.close());

  test('200 with trustDomain, an absolute https trustBundleUri on the same origin, JSON and a strong ETag', async () => {
    const r = await f.call(f.service.discoveryUrl);
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.match(r.headers.etag!, /^"sha256:[0-9a-f]{64}"$/);
    assert.deepEqual(JSON.parse(r.text), { trustDomain: 'wfmck.test', trustBundleUri: f.service.trustBundleUri });
    assert.equal(new URL(f.service.trustBundleUri).origin, f.service.url);
    assert.equal(new URL(f.service.discoveryUrl).pathname, '/.well-known/platform');
  });

  test('an Accept other than application/json is not refused', async () => {
    assert.equal((await f.call(f.service.discoveryUrl, { headers: { accept: 'text/html' } })).status, 200);
  });

  test('If-None-Match with the tag, its weak form, a list holding it, or * gives 304 with an empty body and the ETag', async () => {
    const { etag } = (await f.call(f.service.discoveryUrl)).headers;
    for (const inm of [etag!, `W/${etag}`, `"other", ${etag}`, `, "a,b" ,${etag}`, '*']) {
      const r = await f.call(f.service.discoveryUrl, { headers: { 'if-none-match': inm } });
      assert.equal(r.status, 304, inm);
      assert.equal(r.text, '');
      assert.equal(r.headers.etag, etag);
    }
  });

  test('If-None-Match with other tags or a malformed value gives 200', async () => {
    for (const inm of ['"other"', 'W/"x", "y"', 'garbage', '"unterminated']) {
      assert.equal((await f.call(f.service.discoveryUrl, { headers: { 'if-none-match': inm } })).status, 200, inm);
    }
  });
});

describe('trust bundle (§2.6, §4.6)', () => {
  let f: IdentityFixture;
  before(async () => (f = await identityFixture()));
  after(() => f.close());

  test('a SPIFFE bundle with a sequence, a refresh hint and one x509-svid anchor whose x/y are its x5c key', async () => {
    const r = await f.call(f.service.trustBundleUri);
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    const bundle = JSON.parse(r.text) as TrustBundle;
    assert.equal(bundle.spiffe_sequence, 1);
    assert.equal(bundle.spiffe_refresh_hint, 300);
    assert.deepEqual(bundle, f.service.bundle());
    const [anchor, ...more] = x509Keys(bundle);
    assert.equal(more.length, 0);
    assert.equal(anchor!.kty, 'EC');
    assert.equal(anchor!.crv, 'P-256');
    const fromCert = await exportJWK(await importX509(pemOf(anchor!.x5c![0]!), 'ES256', { extractable: true }));
    assert.equal(anchor!.x, fromCert.x);
    assert.equal(anchor!.y, fromCert.y);
    const cert = new x509.X509Certificate(Buffer.from(anchor!.x5c![0]!, 'base64'));
    assert.equal(cert.getExtension(x509.BasicConstraintsExtension)?.ca, true);
    assert.equal(cert.serialNumber, f.service.authorities()[0]!.cert.serialNumber);
  });

  test('a jwt-svid key with a kid rides along (clients must ignore it)', async () => {
    const jwt = f.service.bundle().keys.filter((k: BundleJwk) => k.use === 'jwt-svid');
    assert.equal(jwt.length, 1);
    assert.match(jwt[0]!.kid!, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(jwt[0]!.x5c, undefined);
  });

  test('the same state gives the same bytes and ETag', async () => {
    const [a, b] = [await f.call(f.service.trustBundleUri), await f.call(f.service.trustBundleUri)];
    assert.equal(a.text, b.text);
    assert.equal(a.headers.etag, b.headers.etag);
  });

  test('the authorities carry private keys that issue certificates chaining to the anchor', async () => {
    const [ca] = f.service.authorities();
    const leaf = await issueCertificate(ca!, { commonName: 'svid', uris: ['spiffe://wfmck.test/platform/wfm/w1'] });
    const anchor = x509Keys(f.service.bundle())[0]!;
    const anchorCert = new x509.X509Certificate(Buffer.from(anchor.x5c![0]!, 'base64'));
    assert.equal(await leaf.cert.verify({ publicKey: anchorCert.publicKey, signatureOnly: true }), true);
  });

  test('bundle unavailable gives 404 with a JSON error, and 200 again once available', async () => {
    f.service.bundleAvailable(false);
    const r = await f.call(f.service.trustBundleUri, { headers: { 'if-none-match': '*' } });
    assert.equal(r.status, 404);
    assert.deepEqual(JSON.parse(r.text), { error: 'bundle unavailable' });
    f.service.bundleAvailable(true);
    assert.equal((await f.call(f.service.trustBundleUri)).status, 200);
  });
});

describe('trust anchor rotation (P5 rotateTrustAnchor)', () => {
  let f: IdentityFixture;
  before(async () => (f = await identityFixture()));
  after(() => f.close());
  const fetchBundle = async () => {
    const r = await f.call(f.service.trustBundleUri);
    return { etag: r.headers.etag!, bundle: JSON.parse(r.text) as TrustBundle };
  };

  test('begin: two x509-svid anchors, old first, sequence+1, a new ETag; the old ETag now gives 200', async () => {
    const before = await fetchBundle();
    assert.deepEqual(await f.service.hooks.rotateTrustAnchor({ phase: 'begin' }), {});
    const during = await fetchBundle();
    const anchors = x509Keys(during.bundle);
    assert.equal(anchors.length, 2);
    assert.deepEqual(anchors[0], x509Keys(before.bundle)[0]);
    assert.equal(during.bundle.spiffe_sequence, before.bundle.spiffe_sequence! + 1);
    assert.notEqual(during.etag, before.etag);
    assert.equal((await f.call(f.service.trustBundleUri, { headers: { 'if-none-match': before.etag } })).status, 200);
    assert.equal((await f.call(f.service.trustBundleUri, { headers: { 'if-none-match': during.etag } })).status, 304);
    assert.equal(f.service.authorities().length, 2);
  });

  test('begin again during the overlap is a no-op that still answers {}', async () => {
    const before = await fetchBundle();
    assert.deepEqual(await f.service.hooks.rotateTrustAnchor({ phase: 'begin' }), {});
    assert.deepEqual(await fetchBundle(), before);
  });

  test('finish: only the new anchor remains, sequence+1', async () => {
    const before = await fetchBundle();
    await f.service.hooks.rotateTrustAnchor({ phase: 'finish' });
    const after = await fetchBundle();
    assert.deepEqual(x509Keys(after.bundle), [x509Keys(before.bundle)[1]]);
    assert.equal(after.bundle.spiffe_sequence, before.bundle.spiffe_sequence! + 1);
    assert.equal(f.service.authorities().length, 1);
  });

  test('finish without a begin is a no-op that still answers {}', async () => {
    const before = await fetchBundle();
    assert.deepEqual(await f.service.hooks.rotateTrustAnchor({ phase: 'finish' }), {});
    assert.deepEqual(await fetchBundle(), before);
  });

  test('an unknown phase rejects and changes nothing', async () => {
    const before = await fetchBundle();
    await assert.rejects(f.service.hooks.rotateTrustAnchor({ phase: 'middle' as 'begin' }), /unknown rotation phase/);
    assert.deepEqual(await fetchBundle(), before);
  });
});

describe('options', () => {
  test('discovery off gives 404 with a JSON error while the bundle is still served', async () => {
    const f = await identityFixture({ discovery: false });
    try {
      const r = await f.call(f.service.discoveryUrl);
      assert.equal(r.status, 404);
      assert.equal(typeof JSON.parse(r.text).error, 'string');
      assert.equal((await f.call(f.service.trustBundleUri)).status, 200);
    } finally {
      await f.close();
    }
  });

  test('vendor, trust domain, refresh hint and no jwt-svid key', async () => {
    const f = await identityFixture({ vendor: 'margo', trustDomain: 'example.org', refreshHintSeconds: 60, includeJwtSvidKey: false });
    try {
      assert.equal(new URL(f.service.discoveryUrl).pathname, '/.well-known/margo');
      const doc = JSON.parse((await f.call(f.service.discoveryUrl)).text);
      assert.equal(doc.trustDomain, 'example.org');
      const bundle = JSON.parse((await f.call(doc.trustBundleUri)).text) as TrustBundle;
      assert.equal(bundle.spiffe_refresh_hint, 60);
      assert.deepEqual(
        bundle.keys.map((k) => k.use),
        ['x509-svid'],
      );
    } finally {
      await f.close();
    }
  });

  test('a host that is no IP address and invalid trust domains are refused at start', async () => {
    const tls = { cert: '', key: '' };
    // Any IP address is taken (wfmck serve --listen, issue 33): its URLs are built from it, so a name is refused.
    await assert.rejects(startIdentity({ host: 'identity.internal', tls }), /listens on an IP address, not identity\.internal/);
    await assert.rejects(startIdentity({ trustDomain: 'Bad/Domain', tls }), /trust domain/);
  });
});
