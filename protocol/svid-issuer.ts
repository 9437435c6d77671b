// X.509-SVIDs of the miaf edition (P10): a CA for one trust domain (root, optionally an intermediate) that issues
// leaf SVIDs, and the deliberately bad leaves later faults and tests present. Certificates come from pki.ts.
import { webcrypto, type JsonWebKey } from 'node:crypto';
import { x509 } from '../spec/x509.ts';
import { createRootCa, issueCertificate, type CryptoKey, type Issued, type KeyAlgorithm } from './pki.ts';
import { nativeLeafIssuer } from './native-leaf.ts';

export interface SvidCa {
  trustDomain: string;
  root: Issued;
  /** Signs the leaves when present; presenters send it with their leaf (P10: "the presenter sends its intermediates"). */
  intermediate?: Issued;
  /** The trust bundle a verifier adds: the root alone. */
  bundlePem: string;
}

export interface SvidCaOptions {
  trustDomain: string;
  keyAlgorithm?: KeyAlgorithm;
  intermediate?: boolean;
}

export interface Svid {
  spiffeId: string;
  cert: x509.X509Certificate;
  /** Empty when the caller supplied the public key (e.g. from a CSR) and holds the private key itself. */
  keyPem: string;
  privateKey?: CryptoKey;
  certPem: string;
  /** Leaf then intermediates, what a TLS peer presents. */
  chainPem: string;
}

export interface SvidOptions {
  /** ECDSA P-256 unless told (P10: mandatory to implement). */
  keyAlgorithm?: KeyAlgorithm;
  /** Sign this key instead of generating a pair. */
  publicKey?: CryptoKey;
  notBefore?: Date;
  notAfter?: Date;
}

const DAY = 86_400_000;

export async function createSvidCa(opts: SvidCaOptions): Promise<SvidCa> {
  const trustDomainId = `spiffe://${opts.trustDomain}`;
  // X509-SVID §3.2: a signing certificate SHOULD itself carry the trust domain's SPIFFE ID.
  const root = await createRootCa(`wfmck SVID root ${opts.trustDomain}`, opts.keyAlgorithm ?? 'P-256', 3650, [trustDomainId]);
  const intermediate = opts.intermediate
    ? await issueCertificate(root, {
        commonName: `wfmck SVID intermediate ${opts.trustDomain}`,
        ca: true,
        uris: [trustDomainId],
        keyAlgorithm: opts.keyAlgorithm,
        notAfter: new Date(Date.now() + 3650 * DAY),
      })
    : undefined;
  return { trustDomain: opts.trustDomain, root, ...(intermediate && { intermediate }), bundlePem: root.certPem };
}

/** An SVID CA of a root someone else made (a configured device CA, say): no intermediate, the root is the bundle. */
export function svidCaOf(root: Issued, trustDomain: string): SvidCa {
  return { trustDomain, root, bundlePem: root.certPem };
}

/** A good leaf SVID for `spiffeId`. */
export function issueSvid(ca: SvidCa, spiffeId: string, opts: SvidOptions = {}): Promise<Svid> {
  return leaf(ca, spiffeId, { uris: [spiffeId] }, opts);
}

/** A good leaf SVID as issueSvid makes it, minted natively (protocol/native-leaf.ts): what a fleet mints by the thousand. */
export interface NativeSvid {
  spiffeId: string;
  certPem: string;
  keyPem: string;
  keyJwk: JsonWebKey;
  /** Leaf then intermediates, what a TLS peer presents. */
  chainPem: string;
}

/** issueSvid for a fleet: the same leaf for a P-256, P-384 or Ed25519 key (NATIVE_LEAF_KEYS), ~0.25 ms instead of ~5. */
export function nativeSvidIssuer(ca: SvidCa): (spiffeId: string, keyAlgorithm?: KeyAlgorithm) => NativeSvid {
  const mint = nativeLeafIssuer(ca.intermediate ?? ca.root);
  return (spiffeId, keyAlgorithm = 'P-256') => {
    const { certPem, keyPem, keyJwk } = mint({ commonName: commonNameOf(spiffeId), uris: [spiffeId], keyAlgorithm });
    return { spiffeId, certPem, keyPem, keyJwk, chainPem: certPem + (ca.intermediate?.certPem ?? '') };
  };
}

/** A leaf SVID's common name: its SPIFFE ID, cut to the 64 characters X.520 allows. */
const commonNameOf = (spiffeId: string) => spiffeId.slice(0, 64);

/** Defects of a leaf, each named after the P10 rule it breaks (go-spiffe style hostile fixtures). */
export const BAD_SVID_KINDS = [
  'ca-as-leaf',
  'cert-sign-leaf',
  'two-uri-sans',
  'no-uri-san',
  'expired',
  'not-yet-valid',
  'other-trust-domain',
  'http-scheme',
  'root-path',
] as const;
export type BadSvidKind = (typeof BAD_SVID_KINDS)[number];

/** A leaf signed by the CA, valid in every respect but `kind`. `spiffeId` must be a path in the CA's trust domain. */
export function issueBadSvid(ca: SvidCa, kind: BadSvidKind, spiffeId: string, opts: SvidOptions = {}): Promise<Svid> {
  const path = spiffeId.replace(/^spiffe:\/\/[^/]+/, '');
  const now = Date.now();
  switch (kind) {
    case 'ca-as-leaf':
      // cA true, yet digitalSignature and clientAuth: OpenSSL's purpose check lets it through as a client leaf, so only
      // a WFM that reads basicConstraints itself refuses it (a keyCertSign CA would be refused by OpenSSL alone).
      return leaf(ca, spiffeId, { uris: [spiffeId], ca: true, keyUsages: x509.KeyUsageFlags.digitalSignature, usage: ['client'] }, opts);
    case 'cert-sign-leaf':
      return leaf(
        ca,
        spiffeId,
        { uris: [spiffeId], keyUsages: x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign },
        opts,
      );
    case 'two-uri-sans':
      return leaf(ca, spiffeId, { uris: [spiffeId, `${spiffeId}-second`] }, opts);
    case 'no-uri-san':
      // A DNS name where the SPIFFE ID should be: P10 never takes identity from DNS names.
      return leaf(ca, spiffeId, { uris: [], dnsNames: ['localhost'] }, opts);
    case 'expired':
      return leaf(ca, spiffeId, { uris: [spiffeId] }, { ...opts, notBefore: new Date(now - 2 * DAY), notAfter: new Date(now - DAY) });
    case 'not-yet-valid':
      return leaf(ca, spiffeId, { uris: [spiffeId] }, { ...opts, notBefore: new Date(now + DAY), notAfter: new Date(now + 2 * DAY) });
    case 'other-trust-domain':
      return leaf(ca, `spiffe://other.${ca.trustDomain}${path}`, { uris: [`spiffe://other.${ca.trustDomain}${path}`] }, opts);
    case 'http-scheme':
      return leaf(ca, spiffeId, { uris: [`http://${ca.trustDomain}${path}`] }, opts);
    case 'root-path':
      return leaf(ca, spiffeId, { uris: [`spiffe://${ca.trustDomain}`] }, opts);
  }
}

interface Shape {
  uris: string[];
  dnsNames?: string[];
  ca?: boolean;
  keyUsages?: x509.KeyUsageFlags;
  usage?: ('server' | 'client')[];
}

async function leaf(ca: SvidCa, spiffeId: string, shape: Shape, opts: SvidOptions): Promise<Svid> {
  const signer = ca.intermediate ?? ca.root;
  const issued = await issueCertificate(signer, {
    commonName: commonNameOf(spiffeId),
    ...shape,
    keyAlgorithm: opts.keyAlgorithm ?? 'P-256',
    ...(opts.publicKey && { publicKey: opts.publicKey }),
    ...(opts.notBefore && { notBefore: opts.notBefore }),
    ...(opts.notAfter && { notAfter: opts.notAfter }),
  });
  const chainPem = issued.certPem + (ca.intermediate?.certPem ?? '');
  return {
    spiffeId,
    cert: issued.cert,
    keyPem: issued.keyPem,
    ...(issued.keys.privateKey && { privateKey: issued.keys.privateKey }),
    certPem: issued.certPem,
    chainPem,
  };
}

/** A key pair P10 does not allow (RSA 2048, ECDSA P-521), to show the key rule refuses it. */
export async function unsupportedPublicKey(kind: 'RSA-2048' | 'P-521'): Promise<CryptoKey> {
  const params =
    kind === 'P-521'
      ? { name: 'ECDSA', namedCurve: 'P-521' }
      : { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
  const pair = (await webcrypto.subtle.generateKey(params, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  return pair.publicKey;
}
