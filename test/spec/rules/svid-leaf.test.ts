// P10 X.509-SVID leaf rules on certificates the issuer makes: trust domain, key allow-list, validity, DNS names ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSvidCa, issueSvid, unsupportedPublicKey } from '../../../protocol/svid-issuer.ts';
import { issueCertificate } from '../../../protocol/pki.ts';
import { parseSvidLeaf, svidLeafFindings, uriSansOf } from '../../../spec/rules/svid-leaf.ts';
import { requirementOfRule } from '../../../spec/lint/rule-requirements.ts';
import { spiffeIdsOf } from '../../../spec/rules/trust-domain-membership.ts';

const TD = 'wfmck.test';
const ID = `spiffe://${TD}/platform/wfm/w/client/c`;
const ca = await createSvidCa({ trustDomain: TD });
const rules = (f: { rule: string }[]) => f.map((x) => x.rule);

test('P10 a good SVID parsed from PEM and from DER has no finding', async () => {
  const svid = await issueSvid(ca, ID);
  for (const input of [svid.certPem, new Uint8Array(svid.cert.rawData)]) {
    assert.deepEqual(svidLeafFindings(parseSvidLeaf(input), { at: new Date(), trustDomain: TD }), []);
  }
});

test("P10 the trust domain is the verifier's own; omitted, it is not judged", async () => {
  const svid = await issueSvid(ca, ID);
  const f = svidLeafFindings(svid.cert, { at: new Date(), trustDomain: 'other.test' });
  assert.deepEqual(rules(f), ['svid-trust-domain']);
  assert.match(f[0]!.message, /wfmck\.test.*other\.test/);
  assert.deepEqual(svidLeafFindings(svid.cert, { at: new Date(), trustDomain: 'WFMCK.test' }), [], 'trust domains compare lowercase');
  assert.deepEqual(svidLeafFindings(svid.cert, { at: new Date() }), []);
});

test('P10 never uses DNS names for identity: a DNS SAN is ignored and never stands in for the URI SAN', async () => {
  const withDns = await issueCertificate(ca.root, { commonName: 'x', uris: [ID], dnsNames: [TD, 'localhost'] });
  assert.deepEqual(svidLeafFindings(withDns.cert, { at: new Date(), trustDomain: TD }), []);
  const wrongUri = await issueCertificate(ca.root, { commonName: 'x', uris: [`spiffe://evil.test/p`], dnsNames: [TD] });
  assert.deepEqual(rules(svidLeafFindings(wrongUri.cert, { at: new Date(), trustDomain: TD })), ['svid-trust-domain']);
  assert.deepEqual(uriSansOf(wrongUri.cert), ['spiffe://evil.test/p']);
});

test('P10 validity is judged at the given instant, both ends', async () => {
  const svid = await issueSvid(ca, ID, { notBefore: new Date('2030-01-01T00:00:00Z'), notAfter: new Date('2030-02-01T00:00:00Z') });
  const at = (iso: string) => rules(svidLeafFindings(svid.cert, { at: new Date(iso) }));
  assert.deepEqual(at('2030-01-15T00:00:00Z'), []);
  assert.deepEqual(at('2029-12-31T23:59:59Z'), ['svid-validity']);
  assert.deepEqual(at('2030-02-01T00:00:01Z'), ['svid-validity']);
});

test('P10 a key outside P-256, P-384, Ed25519 and RSA >= 3072 is refused; the allow-list narrows the optional ones', async () => {
  for (const kind of ['RSA-2048', 'P-521'] as const) {
    const svid = await issueSvid(ca, ID, { publicKey: await unsupportedPublicKey(kind) });
    const f = svidLeafFindings(svid.cert, { at: new Date() });
    assert.deepEqual(rules(f), ['svid-key-algorithm'], kind);
    assert.match(f[0]!.message, kind === 'P-521' ? /P-521/ : /2048 bits/);
  }
  const ed = await issueSvid(ca, ID, { keyAlgorithm: 'Ed25519' });
  assert.deepEqual(svidLeafFindings(ed.cert, { at: new Date() }), []);
  assert.deepEqual(rules(svidLeafFindings(ed.cert, { at: new Date(), keyAlgorithms: ['P-256'] })), ['svid-key-algorithm']);
});

test('every finding names its catalog requirement', () => {
  const expected: Record<string, string> = {
    'svid-leaf-ca': 'SVID-LEAF-NOT-CA',
    'svid-leaf-cert-sign': 'SVID-LEAF-NO-CERT-SIGN',
    'svid-one-uri-san': 'SVID-ONE-URI-SAN',
    'svid-spiffe-id': 'SVID-SPIFFE-SCHEME',
    'svid-validity': 'SVID-NOT-EXPIRED',
    'svid-trust-domain': 'SVID-TRUST-DOMAIN',
    'svid-key-algorithm': 'SVID-KEY-ALG',
  };
  for (const [rule, id] of Object.entries(expected)) assert.equal(requirementOfRule(rule).requirement, id, rule);
});

test('§2.5 spiffeIdsOf reads the same URI SANs and keeps the spiffe ones only', async () => {
  const cert = (
    await issueCertificate(ca.root, {
      commonName: 'x',
      uris: [ID, 'https://example.org/a', 'SPIFFE://wfmck.test/b'],
      dnsNames: ['localhost'],
    })
  ).cert;
  assert.deepEqual(uriSansOf(cert), [ID, 'https://example.org/a', 'SPIFFE://wfmck.test/b']);
  assert.deepEqual(spiffeIdsOf(cert), [ID, 'SPIFFE://wfmck.test/b']);
  assert.deepEqual(spiffeIdsOf(ca.root.cert), [`spiffe://${TD}`]);
});
