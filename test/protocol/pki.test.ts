import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { createRootCa, issueCertificate, certificateKeyId, derOfPem, parseCertificate, pemOf } from '../../protocol/pki.ts';
import { X509Certificate } from 'node:crypto';

test('a root CA issues a server certificate that a TLS client verifies against the CA', async () => {
  const ca = await createRootCa('wfmck test root');
  const leaf = await issueCertificate(ca, { commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  assert.equal(await leaf.cert.verify({ publicKey: ca.cert.publicKey, signatureOnly: true }), true);
  const server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (_req, res) => res.end('ok'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as AddressInfo).port;
    const trusting = new Agent({ connect: { ca: ca.certPem } });
    const res = await request(`https://127.0.0.1:${port}/`, { dispatcher: trusting });
    assert.equal(await res.body.text(), 'ok');
    await assert.rejects(request(`https://127.0.0.1:${port}/`, { dispatcher: new Agent() }));
  } finally {
    server.close();
  }
});

test('certificates parse from PEM, base64 DER and base64 PEM; keyid is the hex SHA-256 of the DER', async () => {
  const ca = await createRootCa('wfmck parse');
  const der = Buffer.from(ca.cert.rawData);
  for (const form of [ca.certPem, der.toString('base64'), Buffer.from(ca.certPem).toString('base64')]) {
    assert.equal(parseCertificate(form).serialNumber, ca.cert.serialNumber);
  }
  assert.match(certificateKeyId(ca.cert.rawData), /^[0-9a-f]{64}$/);
});

for (const alg of ['P-384', 'Ed25519'] as const) {
  test(`a ${alg} CA signs leaves`, async () => {
    const ca = await createRootCa(`wfmck ${alg}`, alg);
    const leaf = await issueCertificate(ca, { commonName: 'x', keyAlgorithm: alg });
    assert.equal(await leaf.cert.verify({ publicKey: ca.cert.publicKey, signatureOnly: true }), true);
  });
}

test('an issuer written as PEM loads back and keeps issuing verifiable certificates', async () => {
  const { loadIssued } = await import('../../protocol/pki.ts');
  const ca = await createRootCa('wfmck reload');
  const loaded = await loadIssued(ca.certPem, ca.keyPem);
  const leaf = await issueCertificate(loaded, { commonName: 'dev1' });
  assert.equal(await leaf.cert.verify({ publicKey: ca.cert.publicKey, signatureOnly: true }), true);
});

test('derOfPem: the bytes of a PEM block, the DER X509Certificate reads (a leaf followed by its chain gives the leaf)', async () => {
  const ca = await createRootCa('der-of-pem CA');
  const leaf = await issueCertificate(ca, { commonName: 'leaf', usage: ['client'] });
  assert.deepEqual(derOfPem(leaf.certPem), new X509Certificate(leaf.certPem).raw);
  assert.deepEqual(derOfPem(leaf.certPem + ca.certPem), new X509Certificate(leaf.certPem).raw);
  assert.throws(() => derOfPem('no pem here'), /not a PEM block/);
  assert.equal(pemOf('CERTIFICATE', derOfPem(leaf.certPem)), leaf.certPem, 'pemOf writes back the PEM it was read from');
});
