// The benchmark's certificate mint: every certificate is a real leaf of the device CA, with its own key and serial.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, X509Certificate } from 'node:crypto';
import { CertificateMint } from '../../bench/mint.ts';
import { createRootCa } from '../../protocol/pki.ts';
import { startWfm } from '../../reference/wfm/server.ts';
import { DeviceApiClient } from '../../simulators/device-api.ts';
import { createTransport } from '../../simulators/transport/undici-transport.ts';
import { certificateKeyId } from '../../protocol/pki.ts';
import { resolveProfile } from '../../spec/profile.ts';

test('minted certificates verify against the device CA, carry the asked CN and the returned key, and never repeat', async () => {
  const ca = await createRootCa('bench device CA');
  const mint = new CertificateMint(ca);
  const caKey = new X509Certificate(ca.certPem).publicKey;
  const names = ['wfmck-dev-000001', 'wfmck-dev-000002', 'a-longer-device-name-000003', 'x'];
  const minted = await Promise.all(names.map((n) => mint.mint(n)));
  for (const [i, m] of minted.entries()) {
    const cert = new X509Certificate(m.der);
    assert.equal(cert.verify(caKey), true, `${names[i]} is signed by the device CA`);
    assert.equal(cert.subject, `CN=${names[i]}`);
    assert.equal(cert.checkPrivateKey(m.privateKey), true);
    assert.deepEqual(
      cert.publicKey.export({ type: 'spki', format: 'der' }),
      createPublicKey(m.privateKey).export({ type: 'spki', format: 'der' }),
    );
  }
  const serials = new Set(minted.map((m) => new X509Certificate(m.der).serialNumber));
  assert.equal(serials.size, names.length);
});

test('the reference WFM onboards a device with a minted certificate (P3 signature by its key)', async () => {
  const ca = await createRootCa('bench root');
  const deviceCa = await createRootCa('bench device CA');
  const wfm = await startWfm({ rootCaPem: ca.certPem, trustedDeviceCaPems: [deviceCa.certPem] });
  const transport = createTransport({ baseUrl: wfm.url });
  try {
    const { der, privateKey } = await new CertificateMint(deviceCa).mint('wfmck-dev-000042');
    const profile = resolveProfile();
    const api = new DeviceApiClient({
      transport,
      profile,
      signer: { keyId: certificateKeyId(der), privateKey, algorithm: profile.signatureAlgorithm },
    });
    const { response, clientId } = await api.onboard(der.toString('base64'));
    assert.equal(response.status, 201, response.text());
    assert.ok(clientId);
  } finally {
    await transport.close();
    await wfm.close();
  }
});
