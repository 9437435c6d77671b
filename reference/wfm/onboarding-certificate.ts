// The certificate of an OnboardingRequest, read once: its DER, keyid, signing key, validity and whether a trusted
// device CA issued it. Two readers give the same verdicts. OpenSSL (node:crypto's X509Certificate) reads any
// certificate; a fleet's common shape (protocol/certificate-der.ts) is read from DER and its issuer's signature checked
// natively, ~0.1 ms cheaper an onboarding, and only when that settles everything: a certificate it does not know, or
// one no trusted CA verifiably issued, goes to OpenSSL, whose answer stands (test/reference/onboarding-certificate.test.ts).
import { createPublicKey, verify, X509Certificate, type KeyObject } from 'node:crypto';
import { certificatePartsOfDer, ECDSA_WITH_SHA256, issuerNamesOfDer, type CertificateParts } from '../../protocol/certificate-der.ts';
import { certificateEncoding, certificateKeyId } from '../../protocol/pki.ts';
import { algorithmForKey } from '../../protocol/signing.ts';
import { WfmError } from './http.ts';

export interface OnboardingCertificate {
  /** Which reader read it. */
  read: 'der' | 'openssl';
  raw: Buffer;
  keyId: string;
  key: { publicKey: KeyObject; algorithm: string };
  notBefore: Date;
  notAfter: Date;
  /** OpenSSL's issuer match (names, key identifiers) and the issuer's signature, by one of `cas` valid at `now`. */
  issuedByAnyOf(cas: readonly X509Certificate[], now: Date): boolean;
  /** The issuer's name, for a refusal. */
  issuer(): string;
}

/** 400 for a certificate that cannot be read or whose key P3 signatures cannot use. */
export function readOnboardingCertificate(text: string, cas: readonly X509Certificate[]): OnboardingCertificate {
  const encoded = certificateEncoding(text);
  if (Buffer.isBuffer(encoded)) {
    const fast = fromDer(encoded, cas);
    if (fast) return fast;
  }
  return fromOpenSsl(encoded);
}

/** A trusted CA as the DER reader compares it, read once per CA; null when only OpenSSL can judge its leaves. */
interface IssuerFacts {
  ca: X509Certificate;
  subject: Uint8Array;
  subjectKeyId?: Uint8Array;
  publicKey: KeyObject;
  notBefore: Date;
  notAfter: Date;
}

const issuers = new WeakMap<X509Certificate, IssuerFacts | null>();

function issuerFacts(ca: X509Certificate): IssuerFacts | null {
  let facts = issuers.get(ca);
  if (facts === undefined) {
    const names = issuerNamesOfDer(ca.raw);
    // A self-issued CA that OpenSSL finds issued itself has extensions OpenSSL reads and may sign certificates
    // (keyCertSign); an intermediate is left to OpenSSL.
    facts =
      names && ca.checkIssued(ca) && ca.publicKey.asymmetricKeyType === 'ec'
        ? { ca, ...names, publicKey: ca.publicKey, notBefore: new Date(ca.validFrom), notAfter: new Date(ca.validTo) }
        : null;
    issuers.set(ca, facts);
  }
  return facts;
}

/** What OpenSSL's checkIssued and verify would both accept, decided on the DER alone. */
function issuedBy(parts: CertificateParts, facts: IssuerFacts): boolean {
  if (Buffer.compare(parts.issuer, facts.subject) !== 0) return false;
  // X509_check_akid: a keyIdentifier must match the issuer's subjectKeyIdentifier when both are there.
  if (parts.authorityKeyId && facts.subjectKeyId && Buffer.compare(parts.authorityKeyId, facts.subjectKeyId) !== 0) return false;
  try {
    return verify('sha256', parts.tbs, facts.publicKey, parts.signature);
  } catch {
    return false;
  }
}

function fromDer(der: Buffer, cas: readonly X509Certificate[]): OnboardingCertificate | undefined {
  const parts = certificatePartsOfDer(der);
  if (!parts?.p256Point || parts.signatureAlgorithm !== ECDSA_WITH_SHA256) return undefined;
  const issuer = cas.map(issuerFacts).find((f) => f !== null && issuedBy(parts, f));
  if (!issuer) return undefined;
  let publicKey: KeyObject;
  try {
    const point = Buffer.from(parts.p256Point.buffer, parts.p256Point.byteOffset, parts.p256Point.length);
    publicKey = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: point.toString('base64url', 1, 33), y: point.toString('base64url', 33) },
      format: 'jwk',
    });
  } catch {
    return undefined;
  }
  return {
    read: 'der',
    raw: der,
    keyId: certificateKeyId(der),
    key: { publicKey, algorithm: 'ecdsa-p256-sha256' },
    notBefore: parts.notBefore,
    notAfter: parts.notAfter,
    issuedByAnyOf: (cas, now) => cas.includes(issuer.ca) && issuer.notBefore <= now && now <= issuer.notAfter,
    issuer: () => issuer.ca.subject.replace(/\n/g, ', '),
  };
}

/** The same, always by OpenSSL: the reading every other one must agree with. */
export function readWithOpenSsl(text: string): OnboardingCertificate {
  return fromOpenSsl(certificateEncoding(text));
}

function fromOpenSsl(encoded: string | Buffer): OnboardingCertificate {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(encoded);
  } catch (e) {
    throw new WfmError(400, `invalid certificate format or structure: ${(e as Error).message}`);
  }
  let publicKey: KeyObject;
  try {
    publicKey = cert.publicKey;
  } catch (e) {
    throw new WfmError(400, `invalid certificate structure: unreadable public key (${(e as Error).message})`);
  }
  const algorithm = algorithmForKey(publicKey);
  if (!algorithm)
    throw new WfmError(400, 'invalid certificate structure: its key is not EC P-256, RSA or Ed25519, the keys P3 signatures use');
  return {
    read: 'openssl',
    raw: cert.raw,
    keyId: certificateKeyId(cert.raw),
    key: { publicKey, algorithm },
    notBefore: new Date(cert.validFrom),
    notAfter: new Date(cert.validTo),
    issuedByAnyOf: (cas, now) => cas.some((ca) => opensslIssuedBy(cert, ca, now)),
    issuer: () => cert.issuer.replace(/\n/g, ', '),
  };
}

function opensslIssuedBy(cert: X509Certificate, ca: X509Certificate, now: Date): boolean {
  if (new Date(ca.validTo) < now || new Date(ca.validFrom) > now || !cert.checkIssued(ca)) return false;
  try {
    return cert.verify(ca.publicKey);
  } catch {
    return false;
  }
}
