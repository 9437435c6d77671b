// Native leaves (protocol/native-leaf.ts) are issueCertificate's leaves built by hand: the same extensions with the
// same criticality, a key identifier computed as @peculiar/x509 computes it, valid under their CA in OpenSSL, and good
// enough for a TLS peer that requires a client certificate. Long names exercise DER's multi-byte lengths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { createRootCa, issueCertificate, type KeyAlgorithm } from '../../protocol/pki.ts';
import { nativeLeafIssuer } from '../../protocol/native-leaf.ts';
import { x509 } from '../../spec/x509.ts';

const DAY = 86_400_000;
const extensionsOf = (c: x509.X509Certificate, skip: string[] = []) =>
  c.extensions
    .filter((e) => !skip.includes(e.type))
    .map((e) => ({ type: e.type, critical: e.critical, value: Buffer.from(e.value).toString('hex') }));

for (const issuerKey of ['P-256', 'P-384', 'Ed25519', 'RSA-3072'] as KeyAlgorithm[]) {
  test(`a native leaf of a ${issuerKey} CA has issueCertificate's extensions and verifies under the CA`, { timeout: 60_000 }, async () => {
    const ca = await createRootCa(`native leaf CA ${issuerKey}`, issuerKey);
    const uri = `spiffe://devices.wfmck.test/platform/client/${'x'.repeat(300)}`;
    const shape = { commonName: 'dev-1', usage: ['client'] as const, uris: [uri] };
    const leaf = nativeLeafIssuer(ca)({ ...shape, usage: [...shape.usage] });
    const reference = await issueCertificate(ca, { ...shape, usage: [...shape.usage] });

    const native = new X509Certificate(leaf.certPem);
    const caCert = new X509Certificate(ca.certPem);
    assert.equal(native.checkIssued(caCert), true);
    assert.equal(native.verify(caCert.publicKey), true);
    assert.deepEqual(native.raw, leaf.der);
    assert.equal(native.subject, 'CN=dev-1');
    assert.equal(native.subjectAltName, `URI:${uri}`);
    assert.equal(native.ca, false);
    const start = Date.parse(native.validFrom);
    assert.ok(Math.abs(start - (Date.now() - DAY)) < 5_000 && Math.abs(Date.parse(native.validTo) - start - 366 * DAY) < 5_000);

    const parsed = new x509.X509Certificate(leaf.certPem);
    assert.deepEqual(extensionsOf(parsed, ['2.5.29.14']), extensionsOf(reference.cert, ['2.5.29.14']));
    const ski = parsed.getExtension(x509.SubjectKeyIdentifierExtension)!.keyId;
    const expected = await x509.SubjectKeyIdentifierExtension.create(await parsed.publicKey.export());
    assert.equal(ski, expected.keyId, 'the key identifier as @peculiar/x509 computes it');
    assert.deepEqual(parsed.signatureAlgorithm, reference.cert.signatureAlgorithm);
    assert.match(parsed.serialNumber, /^[4-7][0-9a-f]{31}$/, 'a positive 16-byte serial, minimal in DER');
    assert.deepEqual(leaf.privateKey.export({ format: 'jwk' }), leaf.keyJwk);
  });
}

test('leaf keys P-256, P-384 and Ed25519 are minted without a key generation job (their JWK is their key); RSA is left to issueCertificate', async () => {
  const ca = await createRootCa('native leaf keys CA');
  const mint = nativeLeafIssuer(ca);
  for (const keyAlgorithm of ['P-256', 'P-384', 'Ed25519'] as const) {
    const leaf = mint({ commonName: keyAlgorithm, usage: ['client'], keyAlgorithm });
    const cert = new X509Certificate(leaf.certPem);
    assert.equal(cert.verify(new X509Certificate(ca.certPem).publicKey), true, keyAlgorithm);
    assert.ok(cert.checkPrivateKey(leaf.privateKey), `${keyAlgorithm}: the certificate is of the key`);
    assert.ok(
      cert.checkPrivateKey(createPrivateKey(leaf.keyPem)) && cert.checkPrivateKey(createPrivateKey({ key: leaf.keyJwk, format: 'jwk' })),
    );
    assert.equal(cert.publicKey.asymmetricKeyType, keyAlgorithm === 'Ed25519' ? 'ed25519' : 'ec');
  }
  assert.throws(() => mint({ commonName: 'rsa', keyAlgorithm: 'RSA-3072' }), /issueCertificate makes one/);
});

test('a thousand native leaves in a row all parse in OpenSSL (a serial or length that is not minimal DER would not)', async () => {
  const mint = nativeLeafIssuer(await createRootCa('native leaf bulk CA'));
  for (let i = 0; i < 1000; i++) {
    const leaf = mint({ commonName: `wfmck-dev-${i}`, usage: ['client'] });
    assert.equal(new X509Certificate(leaf.certPem).subject, `CN=wfmck-dev-${i}`);
  }
});

test('a native leaf is a client certificate a TLS server that requires one accepts; another CA is refused', async () => {
  const ca = await createRootCa('native leaf mTLS CA');
  const server = await issueCertificate(ca, { commonName: 'localhost', ipAddresses: ['127.0.0.1'], usage: ['server'] });
  const https = createServer(
    { cert: server.certPem, key: server.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: true },
    (req, res) => res.end((req.socket as import('node:tls').TLSSocket).getPeerCertificate().subject.CN),
  );
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(https.address() as AddressInfo).port}/`;
  try {
    const leaf = nativeLeafIssuer(ca)({ commonName: 'device-7', usage: ['client'] });
    const agent = new Agent({ connect: { ca: ca.certPem, cert: leaf.certPem, key: leaf.keyPem } });
    const answer = await request(url, { dispatcher: agent });
    assert.equal(await answer.body.text(), 'device-7');
    await agent.close();
    const stranger = nativeLeafIssuer(await createRootCa('another CA'))({ commonName: 'stranger', usage: ['client'] });
    const refused = new Agent({ connect: { ca: ca.certPem, cert: stranger.certPem, key: stranger.keyPem } });
    await assert.rejects(request(url, { dispatcher: refused }).then((r) => r.body.text()));
    await refused.close();
  } finally {
    https.closeAllConnections();
    https.close();
  }
});
