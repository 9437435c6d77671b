// The reference WFM reads an onboarding certificate from DER when it can; OpenSSL's reading is the oracle. Wherever
// the DER reader answers, the two must agree on everything the WFM then decides (keyid, key, validity, issuer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyObject, X509Certificate, sign } from 'node:crypto';
import fc from 'fast-check';
import { createRootCa, generateKeys, issueCertificate, type Issued } from '../../protocol/pki.ts';
import { x509 } from '../../spec/x509.ts';
import { nativeLeafIssuer } from '../../protocol/native-leaf.ts';
import { readOnboardingCertificate, readWithOpenSsl, type OnboardingCertificate } from '../../reference/wfm/onboarding-certificate.ts';

const NOW = new Date();

function facts(c: OnboardingCertificate, cas: X509Certificate[]) {
  return {
    keyId: c.keyId,
    algorithm: c.key.algorithm,
    key: c.key.publicKey.export({ format: 'jwk' }),
    notBefore: c.notBefore.toISOString(),
    notAfter: c.notAfter.toISOString(),
    issued: c.issuedByAnyOf(cas, NOW),
    issuedByNone: c.issuedByAnyOf([], NOW),
  };
}

/** The kit's reading and OpenSSL's agree, and the DER reader took it when `der` says so. */
function agrees(text: string, cas: X509Certificate[], der: boolean, what: string): void {
  const kit = readOnboardingCertificate(text, cas);
  assert.equal(kit.read, der ? 'der' : 'openssl', what);
  assert.deepEqual(facts(kit, cas), facts(readWithOpenSsl(text), cas), what);
}

const b64 = (der: Buffer) => der.toString('base64');

test('the DER reader takes a fleet leaf of a trusted root device CA, and agrees with OpenSSL on it', async () => {
  const ca = await createRootCa('device CA');
  const cas = [new X509Certificate(ca.certPem)];
  const mint = nativeLeafIssuer(ca);
  agrees(b64(mint({ commonName: 'd-1' }).der), cas, true, 'a native leaf');
  agrees(b64(mint({ commonName: 'd-2', uris: ['spiffe://x/y'], dnsNames: ['a.example'] }).der), cas, true, 'with SANs');
  const peculiar = await issueCertificate(ca, { commonName: 'd-3', usage: ['client'], ipAddresses: ['127.0.0.1'] });
  agrees(b64(Buffer.from(peculiar.cert.rawData)), cas, true, 'an issueCertificate leaf');
});

test('anything else goes to OpenSSL, with the same verdicts', async () => {
  const ca = await createRootCa('device CA');
  const other = await createRootCa('other CA');
  const cas = [new X509Certificate(ca.certPem)];
  const leaf = nativeLeafIssuer(ca)({ commonName: 'd-1' });
  agrees(leaf.certPem, cas, false, 'PEM text');
  agrees(b64(nativeLeafIssuer(other)({ commonName: 'd-2' }).der), cas, false, 'another CA');
  agrees(b64(leaf.der), [], false, 'no trusted CA');
  agrees(b64(nativeLeafIssuer(ca)({ commonName: 'd-3', keyAlgorithm: 'Ed25519' }).der), cas, false, 'an Ed25519 key');
  // A P-384 key is no P3 key: 400 from both.
  const p384 = b64(nativeLeafIssuer(ca)({ commonName: 'd-4', keyAlgorithm: 'P-384' }).der);
  const refusal = /its key is not EC P-256, RSA or Ed25519/;
  assert.throws(() => readOnboardingCertificate(p384, cas), refusal);
  assert.throws(() => readWithOpenSsl(p384), refusal);
  const expired = await issueCertificate(ca, { commonName: 'd-5', notAfter: new Date(Date.now() - 86_400_000) });
  const expiredFacts = readOnboardingCertificate(b64(Buffer.from(expired.cert.rawData)), cas);
  assert.deepEqual(facts(expiredFacts, cas), facts(readWithOpenSsl(b64(Buffer.from(expired.cert.rawData))), cas), 'dates');
  // An intermediate CA: only OpenSSL judges its leaves.
  const intermediate = await issueCertificate(ca, { commonName: 'intermediate', ca: true });
  agrees(
    b64(nativeLeafIssuer(intermediate)({ commonName: 'd-6' }).der),
    [new X509Certificate(intermediate.certPem)],
    false,
    'an intermediate',
  );
  // Trailing bytes: OpenSSL reads the first certificate; the DER reader declines.
  agrees(b64(Buffer.concat([leaf.der, Buffer.from([0, 0])])), cas, false, 'trailing bytes');
});

test('a damaged leaf: wherever the DER reader still answers, OpenSSL agrees (a byte changed, or cut short)', async () => {
  const ca = await createRootCa('device CA');
  const cas = [new X509Certificate(ca.certPem)];
  const der = nativeLeafIssuer(ca)({ commonName: 'd-1', uris: ['spiffe://x/y'] }).der;
  const damage = fc.oneof(
    fc.record({ at: fc.nat(der.length - 1), to: fc.integer({ min: 0, max: 255 }) }).map(({ at, to }) => {
      const copy = Buffer.from(der);
      copy[at] = to;
      return copy;
    }),
    fc.nat(der.length - 1).map((n) => der.subarray(0, n)),
  );
  fc.assert(
    fc.property(damage, (bytes) => {
      const text = b64(bytes);
      let kit: OnboardingCertificate | Error;
      try {
        kit = readOnboardingCertificate(text, cas);
      } catch (e) {
        kit = e as Error;
      }
      if (kit instanceof Error || kit.read === 'openssl') return;
      // The DER reader answered: OpenSSL reads the same certificate the same way.
      assert.deepEqual(facts(kit, cas), facts(readWithOpenSsl(text), cas));
    }),
    { numRuns: 400 },
  );
});

test('a trusted CA that expired is trusted by neither reading', async () => {
  const ca: Issued = await createRootCa('device CA', 'P-256', 1);
  const cas = [new X509Certificate(ca.certPem)];
  const text = b64(nativeLeafIssuer(ca)({ commonName: 'd-1' }).der);
  const later = new Date(Date.now() + 3 * 86_400_000);
  assert.equal(readOnboardingCertificate(text, cas).issuedByAnyOf(cas, later), false);
  assert.equal(readWithOpenSsl(text).issuedByAnyOf(cas, later), false);
  assert.equal(readOnboardingCertificate(text, cas).issuedByAnyOf(cas, NOW), true);
});

/** A leaf the CA really signed, with extensions of the caller's choosing. */
async function leafWith(ca: Issued, extensions: x509.Extension[]): Promise<Buffer> {
  const keys = await generateKeys('P-256');
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '4a01',
    subject: 'CN=odd leaf',
    issuer: ca.cert.subject,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    extensions,
  });
  return Buffer.from(cert.rawData);
}

const der = (tag: number, body: Buffer): Buffer => {
  const n = body.length;
  const len = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...len]), body]);
};

test('leaves the CA signed in unusual shapes go to OpenSSL (one it refuses: two signature algorithms)', async () => {
  const ca = await createRootCa('device CA');
  const cas = [new X509Certificate(ca.certPem)];
  const leaf = (extensions: x509.Extension[]) => leafWith(ca, extensions);
  const usage = new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true);
  // A pathLenConstraint without cA: OpenSSL marks the certificate invalid.
  const pathLen = await leaf([new x509.BasicConstraintsExtension(false, 2, true), usage]);
  // The same extension twice: invalid too.
  const twice = await leaf([usage, usage]);
  // tbsCertificate's signature algorithm (SHA-384) is not the outer one (SHA-256), though the CA's signature verifies.
  const native = nativeLeafIssuer(ca)({ commonName: 'd-1' }).der;
  const sha256 = Buffer.from('300a06082a8648ce3d040302', 'hex');
  // The outer SEQUENCE's header is 30 82 LL LL, then tbsCertificate's: 30 82 LL LL and its contents.
  const tbsEnd = 4 + 4 + native.readUInt16BE(6);
  const signedTbs = Buffer.from(native.subarray(4, tbsEnd));
  const at = signedTbs.indexOf(sha256);
  assert.ok(at > 0);
  signedTbs[at + sha256.length - 1] = 0x03;
  const signature = sign('sha256', signedTbs, KeyObject.from(ca.keys.privateKey));
  const mismatched = der(0x30, Buffer.concat([signedTbs, sha256, der(0x03, Buffer.concat([Buffer.from([0]), signature]))]));
  // OpenSSL's own verdict on each is whatever it is; the DER reader leaves all three to it.
  for (const [what, bytes] of [
    ['pathLen without cA', pathLen],
    ['keyUsage twice', twice],
    ['two signature algorithms', mismatched],
  ] as const)
    agrees(b64(bytes), cas, false, what);
  assert.equal(readWithOpenSsl(b64(mismatched)).issuedByAnyOf(cas, NOW), false, 'OpenSSL refuses two signature algorithms');
  // And the same leaf in the plain shape is the DER reader's.
  agrees(b64(await leaf([new x509.BasicConstraintsExtension(false, undefined, true), usage])), cas, true, 'plain');
});
