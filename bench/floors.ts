// The machine's floor for the kit's crypto, measured in the same run as the kit's figures: a native P-256 sign and
// verify (node:crypto, KeyObjects), a certificate parsed and its issuer checked natively, and the kit's own cost for
// the same jobs (its RFC 9421 signing of one request, the reference WFM's onboarding of one device), so bench.json
// can say how far above its floor each kit figure is.
import { X509Certificate, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { signRequestSync } from '../protocol/signing.ts';
import { createRootCa, issueCertificate } from '../protocol/pki.ts';

export interface FloorMeasurement {
  /** Native ECDSA P-256 sign of a signature base's size, per operation. */
  nativeSignUs: number;
  nativeVerifyUs: number;
  /** A device certificate parsed, its issuer matched and its signature verified, natively. */
  nativeX509Us: number;
  /** A P-256 public key made a KeyObject from its coordinates (JWK), as the WFM imports an onboarding device's key. */
  nativeKeyImportUs: number;
  /** The kit's RFC 9421 signing of one PUT (base, Content-Digest, headers), per request. */
  kitSignUs: number;
}

/** Microseconds per call of `fn`: the median of `rounds` timed loops of `n` calls, after one warm-up loop. */
function perCall(fn: () => void, n: number, rounds = 5): number {
  const times: number[] = [];
  for (let r = -1; r < rounds; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    if (r >= 0) times.push(Number(process.hrtime.bigint() - t) / n / 1000);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]! * 10) / 10;
}

export async function measureFloors(n = 2_000): Promise<FloorMeasurement> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  // About what P3's signature base is for a PUT of capabilities.
  const base = Buffer.from(
    '"@method": PUT\n"@target-uri": https://127.0.0.1:8443/api/v1/clients/abc/devices/device-1/capabilities\n"content-digest": sha-256=:x:\n"@signature-params": ("@method" "@target-uri" "content-digest");created=1;keyid="k"',
  );
  const signature = sign('sha256', base, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  const ca = await createRootCa('floor CA');
  const leaf = await issueCertificate(ca, { commonName: 'floor-device', usage: ['client'] });
  const caCert = new X509Certificate(ca.certPem);
  const der = new X509Certificate(leaf.certPem).raw;
  const key = createPrivateKey(leaf.keyPem);
  createPublicKey(key);
  const jwk = publicKey.export({ format: 'jwk' });
  const body = Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'Capabilities', properties: { cpus: 4 } }));
  return {
    nativeSignUs: perCall(() => sign('sha256', base, { key: privateKey, dsaEncoding: 'ieee-p1363' }), n),
    nativeVerifyUs: perCall(() => verify('sha256', base, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature), n),
    nativeX509Us: perCall(() => {
      const c = new X509Certificate(der);
      if (!c.checkIssued(caCert) || !c.verify(caCert.publicKey)) throw new Error('floor: the certificate does not verify');
    }, n / 4),
    nativeKeyImportUs: perCall(() => createPublicKey({ key: jwk, format: 'jwk' }), n / 4),
    kitSignUs: perCall(
      () =>
        signRequestSync({
          method: 'PUT',
          url: 'https://127.0.0.1:8443/api/v1/clients/abc/devices/device-1/capabilities',
          headers: { 'content-type': 'application/json' },
          body,
          privateKey: key,
          keyId: 'k',
        }),
      n,
    ),
  };
}
