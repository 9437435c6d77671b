// The JWK entries of a SPIFFE trust bundle (§2.6): an x509-svid anchor and a jwt-svid key, as every side builds them.
import { calculateJwkThumbprint, exportJWK } from 'jose';
import { generateKeys, type CryptoKey, type Issued } from './pki.ts';
import type { BundleJwk } from '../spec/types.ts';

/** An x509-svid entry: the CA's EC public key with its certificate, so x/y and x5c describe one key. */
export async function x509SvidJwk(ca: Issued): Promise<BundleJwk> {
  return { ...(await ecPublicJwk(ca.keys.publicKey)), use: 'x509-svid', x5c: [Buffer.from(ca.cert.rawData).toString('base64')] };
}

/** A jwt-svid entry that bundle consumers of X.509 anchors must skip (§2.6); SPIFFE requires its kid. */
export async function jwtSvidJwk(): Promise<BundleJwk> {
  const key = await ecPublicJwk((await generateKeys('P-256')).publicKey);
  return { ...key, use: 'jwt-svid', kid: await calculateJwkThumbprint(key) };
}

/** Fixed key order (kty, crv, x, y) so the serialized bundle and its ETag are stable. */
async function ecPublicJwk(key: CryptoKey): Promise<{ kty: string; crv: string; x: string; y: string }> {
  const { kty, crv, x, y } = await exportJWK(key);
  if (kty !== 'EC' || crv !== 'P-256' || !x || !y) throw new Error(`expected an EC P-256 key, got ${kty} ${crv}`);
  return { kty, crv, x, y };
}
