// Keys of a signed run: a PEM PKCS#8 ECDSA P-256 key from a file, or one made for the run; an optional X.509
// certificate of it; a public key to pin. Errors carry WFMCK_E_USAGE codes: each is a bad file, not a kit fault.
import { X509Certificate, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

export class KeyFileError extends Error {
  readonly code = 'WFMCK_E_USAGE_KEY';
}

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** PEM of the certificate of publicKey, when one was given. */
  certificatePem?: string;
  /** True when made for this run: only the envelope's own public key vouches for it. */
  generated: boolean;
}

export function generateSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { privateKey, publicKey, generated: true };
}

export function loadSigningKey(keyFile: string, certFile?: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: readFileSync(keyFile), format: 'pem' });
  } catch (e) {
    throw new KeyFileError(`${keyFile}: not a readable PEM private key (${(e as Error).message})`);
  }
  requireP256(privateKey, keyFile);
  const publicKey = createPublicKey(privateKey);
  if (certFile === undefined) return { privateKey, publicKey, generated: false };
  const cert = readCertificate(certFile);
  if (!cert.publicKey.equals(publicKey)) throw new KeyFileError(`${certFile}: the certificate is not for the key in ${keyFile}`);
  return { privateKey, publicKey, certificatePem: cert.toString(), generated: false };
}

/** A trusted public key to pin: SPKI PEM, a certificate (its key), or a private key PEM (its public half). */
export function loadPublicKey(file: string): KeyObject {
  let pem: Buffer;
  try {
    pem = readFileSync(file);
  } catch (e) {
    throw new KeyFileError(`${file}: unreadable (${(e as Error).message})`);
  }
  let key: KeyObject;
  try {
    key = /-----BEGIN CERTIFICATE-----/.test(pem.toString('latin1')) ? new X509Certificate(pem).publicKey : createPublicKey(pem);
  } catch (e) {
    throw new KeyFileError(`${file}: not a PEM public key or certificate (${(e as Error).message})`);
  }
  requireP256(key, file);
  return key;
}

export function readCertificate(file: string): X509Certificate {
  try {
    return new X509Certificate(readFileSync(file));
  } catch (e) {
    throw new KeyFileError(`${file}: not a readable PEM certificate (${(e as Error).message})`);
  }
}

function requireP256(key: KeyObject, file: string): void {
  // One algorithm keeps the envelope verifiable by every DSSE tool with a plain ECDSA P-256 key.
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new KeyFileError(
      `${file}: the signing key must be ECDSA P-256, not ${key.asymmetricKeyType}${key.asymmetricKeyDetails?.namedCurve ? ` ${key.asymmetricKeyDetails.namedCurve}` : ''}`,
    );
  }
}
