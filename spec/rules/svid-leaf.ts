// P10 (X509-SVID §4.1, §5): the rules an X.509-SVID leaf must meet, judged on the parsed certificate alone.
// Chain validation against the bundle is the TLS stack's job; DNS SANs are never read (P10: no DNS identity).
import { x509 } from '../x509.ts';
import { parseSpiffeId } from '../spiffe-id.ts';
import { finding, type Finding } from './finding.ts';
import { SVID_KEY_ALGORITHMS, type SvidKeyAlgorithm } from './svid-key-algorithms.ts';

export { SVID_KEY_ALGORITHMS, type SvidKeyAlgorithm };

export interface SvidLeafOptions {
  /** The instant the certificate must be valid at. */
  at: Date;
  /** The verifier's own trust domain; omitted, the trust domain is not judged. */
  trustDomain?: string;
  /** Key algorithms the verifier accepts; by default all of P10's. */
  keyAlgorithms?: readonly SvidKeyAlgorithm[];
}

/** A certificate from PEM text or DER bytes. */
export function parseSvidLeaf(input: string | Uint8Array): x509.X509Certificate {
  return new x509.X509Certificate(typeof input === 'string' ? input : Buffer.from(input));
}

/** The P10 name of the certificate's key algorithm, or a description of a key P10 does not name. */
export function svidKeyAlgorithm(cert: x509.X509Certificate): { known: SvidKeyAlgorithm } | { other: string } {
  const alg = cert.publicKey.algorithm as { name: string; namedCurve?: string; modulusLength?: number };
  if (alg.name === 'ECDSA' && (alg.namedCurve === 'P-256' || alg.namedCurve === 'P-384')) return { known: alg.namedCurve };
  if (alg.name === 'Ed25519') return { known: 'Ed25519' };
  if (/^RSA/.test(alg.name) && (alg.modulusLength ?? 0) >= 3072) return { known: 'RSA-3072' };
  const detail = alg.namedCurve ?? (alg.modulusLength ? `${alg.modulusLength} bits` : undefined);
  return { other: detail ? `${alg.name} ${detail}` : alg.name };
}

/** The URI SANs of a certificate, whatever their scheme. */
export function uriSansOf(cert: x509.X509Certificate): string[] {
  return sanValues(sanNames(cert), 'url');
}

const sanNames = (cert: x509.X509Certificate) => cert.getExtension(x509.SubjectAlternativeNameExtension)?.names.items ?? [];
const sanValues = (names: readonly x509.GeneralName[], type: 'url' | 'dns') => names.filter((n) => n.type === type).map((n) => n.value);

/** What the P10 leaf rules read of a certificate: svidLeafFacts (any certificate) or svidLeafFactsOfDer (fast). */
export interface SvidLeafFacts {
  /** basicConstraints cA; false without the extension. */
  basicConstraintsCa: boolean;
  /** keyUsage as x509.KeyUsageFlags; 0 without the extension. */
  keyUsages: number;
  /** URI and DNS SANs, in order. */
  uris: string[];
  dnsNames: string[];
  notBefore: Date;
  notAfter: Date;
  key: { known: SvidKeyAlgorithm } | { other: string };
}

/** The facts of a parsed certificate, whatever its shape. */
export function svidLeafFacts(cert: x509.X509Certificate): SvidLeafFacts {
  const names = sanNames(cert);
  return {
    basicConstraintsCa: cert.getExtension(x509.BasicConstraintsExtension)?.ca === true,
    keyUsages: cert.getExtension(x509.KeyUsagesExtension)?.usages ?? 0,
    uris: sanValues(names, 'url'),
    dnsNames: sanValues(names, 'dns'),
    notBefore: cert.notBefore,
    notAfter: cert.notAfter,
    key: svidKeyAlgorithm(cert),
  };
}

/** Every P10 leaf rule the certificate breaks; empty when it is a valid X.509-SVID leaf for these options. */
export function svidLeafFindings(leaf: x509.X509Certificate | SvidLeafFacts, opts: SvidLeafOptions): Finding[] {
  const facts = leaf instanceof x509.X509Certificate ? svidLeafFacts(leaf) : leaf;
  const out: Finding[] = [];
  if (facts.basicConstraintsCa) {
    out.push(finding('svid-leaf-ca', 'P10, X509-SVID §4.1: a leaf SVID has basicConstraints cA false, this one is a CA certificate'));
  }
  const usages = facts.keyUsages;
  const signing = ['keyCertSign', 'cRLSign'].filter((u) => usages & x509.KeyUsageFlags[u as 'keyCertSign' | 'cRLSign']);
  if (signing.length > 0) out.push(finding('svid-leaf-cert-sign', `P10, X509-SVID §4.3: a leaf SVID must not set ${signing.join(' or ')}`));

  const uris = facts.uris;
  if (uris.length !== 1) {
    out.push(finding('svid-one-uri-san', `P10, X509-SVID §2: a leaf SVID has exactly one URI SAN, this one has ${uris.length}`));
  } else {
    const parsed = parseSpiffeId(uris[0]!);
    if (!parsed.ok) {
      out.push(
        finding(
          'svid-spiffe-id',
          `P10, X509-SVID §2: the URI SAN ${JSON.stringify(uris[0])} is not a SPIFFE ID with a non-root path: ${parsed.message}`,
        ),
      );
    } else if (opts.trustDomain !== undefined && parsed.id.trustDomain !== opts.trustDomain.toLowerCase()) {
      out.push(
        finding(
          'svid-trust-domain',
          `P10: the SVID is in trust domain ${parsed.id.trustDomain}, the verifier's is ${opts.trustDomain.toLowerCase()}`,
        ),
      );
    }
  }

  const at = opts.at.getTime();
  if (at > facts.notAfter.getTime())
    out.push(finding('svid-validity', `P10: the SVID expired at ${facts.notAfter.toISOString()} (judged at ${opts.at.toISOString()})`));
  else if (at < facts.notBefore.getTime())
    out.push(
      finding('svid-validity', `P10: the SVID is not valid before ${facts.notBefore.toISOString()} (judged at ${opts.at.toISOString()})`),
    );

  const allowed = opts.keyAlgorithms ?? SVID_KEY_ALGORITHMS;
  const key = facts.key;
  if ('other' in key)
    out.push(
      finding('svid-key-algorithm', `P10: key ${key.other} is none of ${SVID_KEY_ALGORITHMS.join(', ')} (RSA of at least 3072 bits)`),
    );
  else if (!allowed.includes(key.known))
    out.push(finding('svid-key-algorithm', `P10: key ${key.known} is not in this verifier's allow-list ${allowed.join(', ')}`));
  return out;
}
