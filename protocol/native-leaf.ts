// The leaves a fleet mints by the thousand (a device's onboarding certificate, an X.509-SVID), built as DER from a
// fixed template and signed with node:crypto: ~0.2 ms where issueCertificate (@peculiar/x509) takes ~5 ms. The
// template is issueCertificate's own for a leaf (same extensions, same criticality, same validity), so the two are
// interchangeable; the test compares them field by field. Everything else (CAs, deliberately bad leaves) stays with
// issueCertificate, which reads better than hand-made DER.
import { createECDH, createHash, createPrivateKey, createPublicKey, KeyObject, randomBytes, sign, type JsonWebKey } from 'node:crypto';
import { x509 } from '../spec/x509.ts';
import { pemOf, type Issued, type KeyAlgorithm } from './pki.ts';

export interface NativeLeafOptions {
  commonName: string;
  uris?: string[];
  dnsNames?: string[];
  /** ExtendedKeyUsage, as issueCertificate takes it (default both). */
  usage?: ('server' | 'client')[];
  keyAlgorithm?: KeyAlgorithm;
}

export interface NativeLeaf {
  certPem: string;
  keyPem: string;
  keyJwk: JsonWebKey;
  der: Buffer;
  privateKey: KeyObject;
}

export type NativeLeafIssuer = (opts: NativeLeafOptions) => NativeLeaf;

const DAY = 86_400_000;

// DER, the few shapes a leaf needs (X.690).
const length = (n: number): Buffer => {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};
const tlv = (tag: number, ...parts: Buffer[]): Buffer => {
  const body = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const seq = (...parts: Buffer[]) => tlv(0x30, ...parts);
const oid = (dotted: string): Buffer => {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a! * 40 + b!];
  for (const n of rest) {
    const groups: number[] = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) groups.unshift(0x80 | (v & 0x7f));
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
};
const octets = (b: Buffer) => tlv(0x04, b);
const bits = (b: Buffer, unused = 0) => tlv(0x03, Buffer.from([unused]), b);
const TRUE = Buffer.from([0x01, 0x01, 0xff]);
const NULL = Buffer.from([0x05, 0x00]);
/** UTCTime through 2049, GeneralizedTime after (RFC 5280 4.1.2.5). */
const time = (d: Date): Buffer => {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(iso.slice(2))) : tlv(0x18, Buffer.from(iso));
};
const extension = (id: string, critical: boolean, value: Buffer) => seq(oid(id), ...(critical ? [TRUE] : []), octets(value));

const EKU = { server: '1.3.6.1.5.5.7.3.1', client: '1.3.6.1.5.5.7.3.2' } as const;

/** How the issuer signs: the AlgorithmIdentifier and the node:crypto digest (null for Ed25519). */
function signatureOf(issuer: KeyObject): { algorithm: Buffer; digest: string | null } {
  const type = issuer.asymmetricKeyType;
  if (type === 'ed25519') return { algorithm: seq(oid('1.3.101.112')), digest: null };
  if (type === 'rsa') return { algorithm: seq(oid('1.2.840.113549.1.1.11'), NULL), digest: 'sha256' };
  if (type === 'ec') {
    const p384 = issuer.asymmetricKeyDetails?.namedCurve === 'secp384r1';
    return { algorithm: seq(oid(p384 ? '1.2.840.10045.4.3.3' : '1.2.840.10045.4.3.2')), digest: p384 ? 'sha384' : 'sha256' };
  }
  throw new Error(`native leaves: an issuer key of type ${type} is not supported`);
}

/**
 * A fresh key pair without Node's key generation job: an export of a key from generateKeyPair(Sync) holds the key's
 * mutex while it allocates, and a garbage collection that then destroys the finished job locks the same mutex (its
 * config's destructor): the process deadlocks (seen once in 92,000 mints, Node 20). Here the secret comes from ECDH
 * (EC) or from random bytes (Ed25519) and the KeyObject from createPrivateKey, which no job shares.
 */
function generate(kind: KeyAlgorithm): { privateKey: KeyObject; spki: Buffer; jwk: JsonWebKey } {
  if (kind === 'P-256' || kind === 'P-384') {
    const size = kind === 'P-256' ? 32 : 48;
    const ecdh = createECDH(kind === 'P-256' ? 'prime256v1' : 'secp384r1');
    const point = ecdh.generateKeys();
    const d = Buffer.concat([Buffer.alloc(size), ecdh.getPrivateKey()]).subarray(-size);
    const jwk: JsonWebKey = {
      kty: 'EC',
      crv: kind,
      d: d.toString('base64url'),
      x: point.subarray(1, 1 + size).toString('base64url'),
      y: point.subarray(1 + size).toString('base64url'),
    };
    const curve = oid(kind === 'P-256' ? '1.2.840.10045.3.1.7' : '1.3.132.0.34');
    return { privateKey: createPrivateKey({ key: jwk, format: 'jwk' }), spki: seq(seq(oid('1.2.840.10045.2.1'), curve), bits(point)), jwk };
  }
  if (kind === 'Ed25519') {
    const seed = randomBytes(32);
    const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
    return {
      privateKey,
      spki,
      jwk: { kty: 'OKP', crv: 'Ed25519', d: seed.toString('base64url'), x: spki.subarray(-32).toString('base64url') },
    };
  }
  throw new Error(`native leaves: a ${kind} key is not minted here (issueCertificate makes one)`);
}

/** The leaf keys minted here; an RSA leaf goes through issueCertificate (its key generation is the slow part anyway). */
export const NATIVE_LEAF_KEYS: readonly KeyAlgorithm[] = ['P-256', 'P-384', 'Ed25519'];

/** PKCS#8 of an Ed25519 key before its 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** RFC 5280 4.2.1.2 method 1, as @peculiar/x509 computes it: SHA-1 of the subjectPublicKey BIT STRING's bits. */
function keyIdentifier(spki: Buffer): Buffer {
  // The BIT STRING is the SPKI's last element: its content after the unused-bits byte.
  const bitString = lastElement(spki);
  return createHash('sha1').update(bitString.subarray(1)).digest();
}

/** The content of the last element of a DER SEQUENCE (the subjectPublicKey BIT STRING of an SPKI). */
function lastElement(sequence: Buffer): Buffer {
  let at = headerLength(sequence, 0);
  let last: Buffer = Buffer.alloc(0);
  while (at < sequence.length) {
    const head = headerLength(sequence, at);
    const size = contentLength(sequence, at);
    last = sequence.subarray(at + head, at + head + size);
    at += head + size;
  }
  return last;
}
const headerLength = (b: Buffer, at: number) => (b[at + 1]! < 0x80 ? 2 : 2 + (b[at + 1]! & 0x7f));
function contentLength(b: Buffer, at: number): number {
  const first = b[at + 1]!;
  if (first < 0x80) return first;
  let n = 0;
  for (let i = 0; i < (first & 0x7f); i++) n = n * 256 + b[at + 2 + i]!;
  return n;
}

/** A leaf issuer for `issuer`: what is the same for every leaf (its name, key identifier, signing key) read once. */
export function nativeLeafIssuer(issuer: Issued): NativeLeafIssuer {
  const signingKey = KeyObject.from(issuer.keys.privateKey);
  const { algorithm, digest } = signatureOf(signingKey);
  const issuerName = Buffer.from(issuer.cert.subjectName.toArrayBuffer());
  const ski = issuer.cert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const authorityKeyId = ski
    ? Buffer.from(ski, 'hex')
    : keyIdentifier(KeyObject.from(issuer.keys.publicKey).export({ type: 'spki', format: 'der' }));
  const aki = extension('2.5.29.35', false, seq(tlv(0x80, authorityKeyId)));
  const basicConstraints = extension('2.5.29.19', true, seq());
  const digitalSignature = extension('2.5.29.15', true, bits(Buffer.from([0x80]), 7));
  const version = tlv(0xa0, tlv(0x02, Buffer.from([2])));

  return (opts) => {
    const keys = generate(opts.keyAlgorithm ?? 'P-256');
    const serial = randomBytes(16);
    // Positive and minimal in DER: the first byte in 0x40-0x7f (neither a sign bit nor a leading zero), 126 random bits.
    serial[0] = 0x40 | (serial[0]! & 0x3f);
    const now = Date.now();
    // Whole seconds: a time in DER has no fraction, and the validity is what issueCertificate gives a leaf.
    const notBefore = new Date(Math.floor((now - DAY) / 1000) * 1000);
    const notAfter = new Date(Math.floor((now + 365 * DAY) / 1000) * 1000);
    const subject = seq(tlv(0x31, seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(opts.commonName, 'utf8')))));
    const san = [
      ...(opts.dnsNames ?? []).map((d) => tlv(0x82, Buffer.from(d, 'ascii'))),
      ...(opts.uris ?? []).map((u) => tlv(0x86, Buffer.from(u, 'ascii'))),
    ];
    const extensions = [
      basicConstraints,
      digitalSignature,
      aki,
      extension('2.5.29.14', false, octets(keyIdentifier(keys.spki))),
      extension('2.5.29.37', false, seq(...(opts.usage ?? ['server', 'client']).map((u) => oid(EKU[u])))),
      ...(san.length ? [extension('2.5.29.17', false, seq(...san))] : []),
    ];
    const tbs = seq(
      version,
      tlv(0x02, serial),
      algorithm,
      issuerName,
      seq(time(notBefore), time(notAfter)),
      subject,
      keys.spki,
      tlv(0xa3, seq(...extensions)),
    );
    const signature = sign(
      digest,
      tbs,
      digest && signingKey.asymmetricKeyType === 'ec' ? { key: signingKey, dsaEncoding: 'der' } : signingKey,
    );
    const der = seq(tbs, algorithm, bits(signature));
    return {
      der,
      certPem: pemOf('CERTIFICATE', der),
      keyPem: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      keyJwk: keys.jwk,
      privateKey: keys.privateKey,
    };
  };
}
