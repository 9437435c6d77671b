import { fcOptions } from '../../support/fc.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { exportJWK, importX509 } from 'jose';
import { createRootCa, type Issued, type KeyAlgorithm } from '../../../protocol/pki.ts';
import {
  acceptBundle,
  anchorFindings,
  applyRetrieval,
  bundleOriginFindings,
  discoveryFindings,
  isHttpsUri,
  refreshDelayMs,
  sequenceFindings,
  trustDomainFindings,
  x509Anchors,
  type Anchor,
  type Retrieval,
} from '../../../spec/rules/trust-bundle.ts';
import type { BundleJwk, TrustBundle } from '../../../spec/types.ts';

const fcOpts = fcOptions(200);
const rules = (fs: { rule: string }[]) => fs.map((f) => f.rule);
const JOSE_ALG: Record<KeyAlgorithm, string> = { 'P-256': 'ES256', 'P-384': 'ES384', Ed25519: 'EdDSA', 'RSA-3072': 'RS256' };

const der = (ca: Issued) => Buffer.from(ca.cert.rawData).toString('base64');
async function anchorJwk(ca: Issued, alg: KeyAlgorithm = 'P-256', kid?: string): Promise<BundleJwk> {
  const jwk = await exportJWK(await importX509(ca.certPem, JOSE_ALG[alg], { extractable: true }));
  return { ...(jwk as BundleJwk), use: 'x509-svid', x5c: [der(ca)], ...(kid ? { kid } : {}) };
}
const bundle = (keys: BundleJwk[], extra: Partial<TrustBundle> = {}): TrustBundle => ({ spiffe_sequence: 1, keys, ...extra });
const x5cs = (anchors: Anchor[] | undefined) => anchors?.map((a) => a.x5c);

const cas = await Promise.all(['one', 'two', 'three'].map((n) => createRootCa(`wfmck bundle ${n}`)));
const jwks = await Promise.all(cas.map((ca, i) => anchorJwk(ca, 'P-256', `k${i}`)));
const jwtSvid: BundleJwk = { ...jwks[0]!, use: 'jwt-svid', x5c: undefined, kid: 'jwt' };

test('§2.6: x509-svid entries are anchors; jwt-svid, other uses and non-objects are ignored', () => {
  const b = { keys: [jwks[0]!, jwtSvid, { ...jwks[1]!, use: 'sig' }, 'junk', jwks[2]!] } as unknown as TrustBundle;
  const { anchors, ignored } = x509Anchors(b);
  assert.deepEqual(
    anchors.map((a) => [a.index, a.kid]),
    [
      [0, 'k0'],
      [4, 'k2'],
    ],
  );
  assert.deepEqual(
    ignored.map((e) => e.index),
    [1, 2, 3],
  );
  assert.equal(anchors[0]!.certificate.subject, 'CN=wfmck bundle one');
  assert.deepEqual(anchorFindings(b), [], 'ignored entries are not findings');
});

for (const alg of ['P-384', 'Ed25519', 'RSA-3072'] as const) {
  test(`§2.6: a ${alg} anchor's JWK matches its certificate`, async () => {
    const ca = await createRootCa(`wfmck ${alg}`, alg);
    const b = bundle([await anchorJwk(ca, alg)]);
    assert.equal(x509Anchors(b).anchors.length, 1);
    assert.deepEqual(anchorFindings(b), []);
  });
}

test('§2.6: defective x509-svid entries are findings and never anchors', () => {
  const wrongKey = { ...jwks[0]!, x5c: [der(cas[1]!)] };
  const cases: [BundleJwk, string][] = [
    [wrongKey, 'jwk-matches-certificate'],
    [{ ...jwks[0]!, kty: 'RSA' }, 'jwk-matches-certificate'],
    [{ ...jwks[0]!, x5c: undefined }, 'x5c-present'],
    [{ ...jwks[0]!, x5c: ['bm90IGEgY2VydA=='] }, 'x5c-certificate'],
    [{ ...jwks[0]!, x5c: ['***'] }, 'x5c-certificate'],
  ];
  for (const [entry, rule] of cases) {
    assert.deepEqual(rules(anchorFindings(bundle([entry]))), [rule], rule);
    assert.equal(acceptBundle(bundle([entry])).accepted, false);
  }
  assert.deepEqual(rules(anchorFindings(bundle([{ ...jwks[0]!, x5c: [der(cas[0]!), der(cas[1]!)] }]))), ['x5c-one-certificate']);
});

test('§4.6 rule 1: no X.509 anchor means rejection (fail closed); a non-JWK-Set body is rejected; unknown fields are tolerated', () => {
  assert.equal(acceptBundle(bundle([jwtSvid])).accepted, false);
  assert.equal(acceptBundle(bundle([])).accepted, false);
  for (const body of [null, 'keys', [], {}, { keys: {} }]) assert.equal(acceptBundle(body).accepted, false, JSON.stringify(body));
  const verdict = acceptBundle({ ...bundle([jwks[0]!, jwtSvid]), spiffe_future_field: { a: 1 } });
  assert.equal(verdict.accepted, true);
  if (verdict.accepted) assert.deepEqual(x5cs(verdict.anchors), [der(cas[0]!)]);
});

test('§4.6 rules 2, 3, 5: failures and rejections change nothing; acceptance replaces, never merges', () => {
  const first = applyRetrieval(undefined, { ok: true, bundle: bundle([jwks[0]!, jwks[1]!]) });
  assert.equal(first.changed, true);
  const failed = applyRetrieval(first.anchors, { ok: false, error: 'ECONNREFUSED' });
  assert.equal(failed.changed, false);
  assert.equal(failed.anchors, first.anchors);
  const rejected = applyRetrieval(first.anchors, { ok: true, bundle: bundle([jwtSvid]) });
  assert.equal(rejected.changed, false);
  assert.equal(rejected.anchors, first.anchors);
  assert.match(rejected.reason ?? '', /rule 1/);
  const rotated = applyRetrieval(first.anchors, { ok: true, bundle: bundle([jwks[2]!]) });
  assert.deepEqual(x5cs(rotated.anchors), [der(cas[2]!)]);
});

test("§4.6 rules 2-3: after any retrieval sequence the anchors are exactly the last accepted bundle's", () => {
  const retrieval: fc.Arbitrary<Retrieval> = fc.oneof(
    fc.subarray(jwks, { minLength: 1 }).map((keys): Retrieval => ({ ok: true, bundle: bundle([...keys, jwtSvid]) })),
    fc.constant<Retrieval>({ ok: true, bundle: bundle([jwtSvid]) }),
    fc.constant<Retrieval>({ ok: true, bundle: { not: 'a jwk set' } }),
    fc.constant<Retrieval>({ ok: false, error: 'HTTP 404' }),
  );
  fc.assert(
    fc.property(fc.array(retrieval, { maxLength: 15 }), (retrievals) => {
      let anchors: Anchor[] | undefined;
      let lastAccepted: string[] | undefined;
      for (const r of retrievals) {
        anchors = applyRetrieval(anchors, r).anchors;
        const verdict = r.ok ? acceptBundle(r.bundle) : undefined;
        if (verdict?.accepted)
          lastAccepted = (r as { bundle: TrustBundle }).bundle.keys.filter((k) => k.use === 'x509-svid').map((k) => k.x5c![0]!);
      }
      assert.deepEqual(x5cs(anchors), lastAccepted);
    }),
    fcOpts,
  );
});

test('§4.6: only absolute https URLs are trust bundle URIs', () => {
  for (const ok of ['https://id.example.org/bundle', 'HTTPS://id.example.org:8443/b?x=1', 'https://127.0.0.1/'])
    assert.equal(isHttpsUri(ok), true, ok);
  for (const bad of [
    'http://id.example.org/b',
    '//id.example.org/b',
    '/bundle',
    'https:id.example.org',
    'https:///b',
    ' https://x/',
    'ftp://x/',
    'spiffe://td',
  ]) {
    assert.equal(isHttpsUri(bad), false, bad);
  }
  fc.assert(
    fc.property(fc.webUrl({ validSchemes: ['http', 'ftp', 'ws'] }), (url) => assert.equal(isHttpsUri(url), false)),
    fcOpts,
  );
  fc.assert(
    fc.property(fc.webUrl({ validSchemes: ['https'] }), (url) => assert.equal(isHttpsUri(url), true)),
    fcOpts,
  );
});

test('§4.6 rule 4: refresh at spiffe_refresh_hint (read as seconds), else at the operator interval', () => {
  assert.equal(refreshDelayMs(bundle([], { spiffe_refresh_hint: 300 }), 60_000), 300_000);
  assert.equal(refreshDelayMs(bundle([]), 60_000), 60_000);
  assert.equal(refreshDelayMs(undefined, 60_000), 60_000);
  for (const hint of [0, -5, Number.NaN]) assert.equal(refreshDelayMs(bundle([], { spiffe_refresh_hint: hint }), 60_000), 60_000);
});

test('§2.6: spiffe_sequence never goes down and goes up when the anchors change', () => {
  const one = bundle([jwks[0]!], { spiffe_sequence: 5 });
  assert.deepEqual(sequenceFindings(undefined, one), []);
  assert.deepEqual(sequenceFindings(one, { ...one }), [], 'same anchors, same sequence');
  assert.deepEqual(sequenceFindings(one, bundle([jwks[0]!, jwks[1]!], { spiffe_sequence: 6 })), [], 'overlap with a new sequence');
  assert.deepEqual(rules(sequenceFindings(one, bundle([jwks[1]!], { spiffe_sequence: 5 }))), ['spiffe-sequence-increases']);
  assert.deepEqual(rules(sequenceFindings(one, bundle([jwks[0]!], { spiffe_sequence: 4 }))), ['spiffe-sequence-decreases']);
  assert.deepEqual(rules(sequenceFindings(one, { keys: [jwks[1]!] })), ['spiffe-sequence-increases']);
  assert.deepEqual(rules(sequenceFindings(undefined, bundle([], { spiffe_sequence: 1.5 }))), ['spiffe-sequence-integer']);
});

test("§4.6 rule 6: the discovery trust domain must be the trust domain of the client's own SPIFFE ID", () => {
  const doc = { trustDomain: 'example.org' };
  assert.deepEqual(trustDomainFindings(doc), [], 'a client without an SVID has nothing to compare');
  assert.deepEqual(trustDomainFindings(doc, 'spiffe://example.org/platform/wfm/w1/client/c1'), []);
  assert.deepEqual(trustDomainFindings({ trustDomain: 'spiffe://example.org' }, 'spiffe://example.org/x'), []);
  assert.deepEqual(rules(trustDomainFindings(doc, 'spiffe://other.org/x')), ['trust-domain-mismatch']);
  assert.deepEqual(rules(trustDomainFindings(doc, 'https://example.org/x')), ['spiffe-id']);
});

test('§2.5: discovery needs trustDomain and an absolute https trustBundleUri; unknown fields are ignored', () => {
  assert.deepEqual(discoveryFindings({ trustDomain: 'example.org', trustBundleUri: 'https://id.example.org/bundle', future: [1] }), []);
  assert.deepEqual(rules(discoveryFindings({ trustDomain: 'example.org', trustBundleUri: 'http://id.example.org/bundle' })), [
    'discovery-trust-bundle-uri',
  ]);
  assert.deepEqual(rules(discoveryFindings({ trustDomain: 'example.org', trustBundleUri: '/bundle' })), ['discovery-trust-bundle-uri']);
  assert.deepEqual(rules(discoveryFindings({ trustBundleUri: 'https://x/b' })), ['discovery-trust-domain']);
  assert.deepEqual(rules(discoveryFindings({ trustDomain: 'Example Org', trustBundleUri: 'https://x/b' })), ['trust-domain-name']);
  assert.deepEqual(rules(discoveryFindings([])), ['discovery-document-object']);
});

test('§4.6 rule 7: a bundle on another origin needs initial-trust material for that origin', () => {
  assert.deepEqual(bundleOriginFindings('https://id.example.org/.well-known/platform', 'https://id.example.org/bundle', []), []);
  assert.deepEqual(rules(bundleOriginFindings('https://id.example.org/.well-known/platform', 'https://cdn.example.org/b', [])), [
    'bundle-origin-covered',
  ]);
  assert.deepEqual(bundleOriginFindings('https://id.example.org/', 'https://cdn.example.org/b', ['https://cdn.example.org']), []);
});
