// Certificate authorities and leaf certificates for the reference services and the kit's simulated devices.
import { createHash, webcrypto, X509Certificate } from 'node:crypto';
import { x509 } from '../spec/x509.ts';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
type Algorithm = webcrypto.Algorithm;

export type KeyAlgorithm = 'P-256' | 'P-384' | 'Ed25519' | 'RSA-3072';

export type { CryptoKey, CryptoKeyPair };

export interface Issued {
  cert: x509.X509Certificate;
  keys: CryptoKeyPair;
  certPem: string;
  keyPem: string;
}

export interface LeafOptions {
  commonName: string;
  dnsNames?: string[];
  ipAddresses?: string[];
  uris?: string[];
  ca?: boolean;
  /** KeyUsage flags instead of the defaults (digitalSignature; keyCertSign|cRLSign for a CA): for deliberately bad leaves. */
  keyUsages?: x509.KeyUsageFlags;
  /** ExtendedKeyUsage: server, client or both (default both for leaves). */
  usage?: ('server' | 'client')[];
  keyAlgorithm?: KeyAlgorithm;
  notBefore?: Date;
  notAfter?: Date;
  /** Sign a key the caller already holds (e.g. from a CSR) instead of generating one. */
  publicKey?: CryptoKey;
}

const DAY = 86_400_000;

function algorithmFor(kind: KeyAlgorithm): {
  gen: webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams | { name: 'Ed25519' };
  sign: Algorithm;
} {
  switch (kind) {
    case 'P-256':
      return { gen: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } as Algorithm };
    case 'P-384':
      return { gen: { name: 'ECDSA', namedCurve: 'P-384' }, sign: { name: 'ECDSA', hash: 'SHA-384' } as Algorithm };
    case 'Ed25519':
      return { gen: { name: 'Ed25519' }, sign: { name: 'Ed25519' } };
    case 'RSA-3072':
      return {
        gen: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 3072, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
        sign: { name: 'RSASSA-PKCS1-v1_5' },
      };
  }
}

export async function generateKeys(kind: KeyAlgorithm = 'P-256'): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(algorithmFor(kind).gen, true, ['sign', 'verify'])) as CryptoKeyPair;
}

export async function privateKeyPem(key: CryptoKey): Promise<string> {
  return pemOf('PRIVATE KEY', Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key)));
}

function serial(): string {
  // Positive 16-byte serial: clear the top bit.
  const b = webcrypto.getRandomValues(new Uint8Array(16));
  b[0] = b[0]! & 0x7f;
  return Buffer.from(b).toString('hex');
}

/** A self-signed root CA; `uris` become URI SANs (a SPIFFE signing certificate carries its trust domain's ID). */
export async function createRootCa(
  commonName: string,
  keyAlgorithm: KeyAlgorithm = 'P-256',
  validDays = 3650,
  uris: string[] = [],
): Promise<Issued> {
  const keys = await generateKeys(keyAlgorithm);
  const name = `CN=${commonName}`;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: name,
    issuer: name,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + validDays * DAY),
    signingAlgorithm: algorithmFor(keyAlgorithm).sign,
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ...(uris.length ? [new x509.SubjectAlternativeNameExtension(uris.map((value) => ({ type: 'url' as const, value })))] : []),
    ],
  });
  return { cert, keys, certPem: cert.toString('pem') + '\n', keyPem: await privateKeyPem(keys.privateKey) };
}

/** A certificate issued by `issuer` (a leaf by default, an intermediate CA with `ca: true`). */
export async function issueCertificate(issuer: Issued, opts: LeafOptions): Promise<Issued> {
  const keyAlgorithm = opts.keyAlgorithm ?? 'P-256';
  const keys = opts.publicKey ? ({ publicKey: opts.publicKey } as CryptoKeyPair) : await generateKeys(keyAlgorithm);
  const issuerAlg = issuerKeyAlgorithm(issuer);
  const san: x509.JsonGeneralName[] = [
    ...(opts.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(opts.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
    ...(opts.uris ?? []).map((value) => ({ type: 'url' as const, value })),
  ];
  const usage = opts.usage ?? ['server', 'client'];
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(!!opts.ca, undefined, true),
    new x509.KeyUsagesExtension(
      opts.keyUsages ?? (opts.ca ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign : x509.KeyUsageFlags.digitalSignature),
      true,
    ),
    await x509.AuthorityKeyIdentifierExtension.create(issuer.keys.publicKey),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
  ];
  // A CA has no ExtendedKeyUsage unless one is asked for (a CA certificate made to pass as a TLS leaf, SVID-LEAF-NOT-CA).
  if (!opts.ca || opts.usage) {
    extensions.push(
      new x509.ExtendedKeyUsageExtension(
        usage.map((u) => (u === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth)),
      ),
    );
  }
  if (san.length) extensions.push(new x509.SubjectAlternativeNameExtension(san));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${opts.commonName}`,
    issuer: issuer.cert.subject,
    notBefore: opts.notBefore ?? new Date(Date.now() - DAY),
    notAfter: opts.notAfter ?? new Date(Date.now() + 365 * DAY),
    signingAlgorithm: algorithmFor(issuerAlg).sign,
    publicKey: keys.publicKey,
    signingKey: issuer.keys.privateKey,
    extensions,
  });
  const keyPem = keys.privateKey ? await privateKeyPem(keys.privateKey) : '';
  return { cert, keys, certPem: cert.toString('pem') + '\n', keyPem };
}

function issuerKeyAlgorithm(issuer: Issued): KeyAlgorithm {
  const alg = issuer.keys.privateKey.algorithm as webcrypto.EcKeyAlgorithm & webcrypto.RsaHashedKeyAlgorithm;
  if (alg.name === 'Ed25519') return 'Ed25519';
  if (alg.name === 'ECDSA') return alg.namedCurve === 'P-384' ? 'P-384' : 'P-256';
  return 'RSA-3072';
}

/** P3: a client's keyid is the lowercase hex SHA-256 of its certificate's DER. */
export function certificateKeyId(certDer: ArrayBuffer | Uint8Array): string {
  return createHash('sha256')
    .update(Buffer.from(certDer as ArrayBuffer))
    .digest('hex');
}

/** DER as a PEM block of `label`, its base64 in lines of 64. */
export function pemOf(label: string, der: Buffer): string {
  return `-----BEGIN ${label}-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END ${label}-----\n`;
}

/** The DER bytes of a PEM's first block: base64 decoding, no parse (the bytes are what was written). */
export function derOfPem(pem: string): Buffer {
  const body = /-----BEGIN [^-]+-----([^-]*)-----END/.exec(pem)?.[1];
  if (body === undefined) throw new Error('not a PEM block');
  return Buffer.from(body, 'base64');
}

/** A certificate given as PEM, base64 DER, or base64 of a PEM (P2/§2.3 allow either), as PEM text or DER bytes. */
export function certificateEncoding(text: string): string | Buffer {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return trimmed;
  const decoded = Buffer.from(trimmed, 'base64');
  const asText = decoded.toString('latin1');
  return asText.startsWith('-----BEGIN') ? asText : decoded;
}

/** Parse a certificate given as PEM, base64 DER, or base64 of a PEM (P2/§2.3 allow either). */
export function parseCertificate(text: string): x509.X509Certificate {
  return new x509.X509Certificate(certificateEncoding(text));
}

/** An issuer loaded from PEM files (e.g. the device CA written by `wfmck serve`). */
export async function loadIssued(certPem: string, keyPem: string): Promise<Issued> {
  const cert = new x509.X509Certificate(certPem);
  const publicKey = (await cert.publicKey.export()) as unknown as CryptoKey;
  const algorithm = publicKey.algorithm as webcrypto.EcKeyAlgorithm & webcrypto.RsaHashedKeyAlgorithm;
  const importAlg =
    algorithm.name === 'ECDSA'
      ? { name: 'ECDSA', namedCurve: algorithm.namedCurve }
      : algorithm.name === 'Ed25519'
        ? { name: 'Ed25519' }
        : { name: algorithm.name, hash: 'SHA-256' };
  const der = Buffer.from(keyPem.replace(/-----(BEGIN|END) PRIVATE KEY-----|\s/g, ''), 'base64');
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, importAlg, true, ['sign']);
  return { cert, keys: { publicKey, privateKey }, certPem, keyPem };
}
