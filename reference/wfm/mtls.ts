// P10 (miaf): the reference WFM's mutual TLS. OpenSSL validates the client chain against the current trust bundle
// (an alert for no certificate, an unknown CA or an expired leaf); the SVID rules OpenSSL does not know (leaf shape,
// trust domain, wfm-id) are judged right after the handshake, and a refused connection is closed before any HTTP.
import type { TLSSocket, TlsOptions } from 'node:tls';
import type { Profile } from '../../spec/profile.ts';
import { SVID_KEY_ALGORITHMS, svidKeyAlgorithm, svidLeafFindings } from '../../spec/rules/svid-leaf.ts';
import { identityOf } from '../../spec/spiffe-id.ts';
import { x509 } from '../../spec/x509.ts';
import type { ActiveFaults } from '../faults/types.ts';

export interface WfmSvidSettings {
  trustDomain: string;
  wfmId: string;
  /** The WFM's own X.509-SVID (leaf then intermediates) and key. */
  chainPem: string;
  keyPem: string;
  /** PEM anchors of the current trust bundle of the trust domain; setTrustAnchors replaces them on rotation. */
  anchorsPem: string[];
}

export type PeerVerdict = { ok: true; spiffeId: string } | { ok: false; reason: string };

/** OpenSSL verification results a fault lets through (the fault then also skips the matching SVID rule). */
const TOLERATED: Record<string, string[]> = {
  'SVID-NOT-EXPIRED': ['CERT_HAS_EXPIRED'],
  'SVID-LEAF-NOT-CA': ['INVALID_PURPOSE', 'INVALID_CA'],
  'MIAF-MTLS-EVERY-REQUEST': [],
};

export function mtlsServerOptions(s: WfmSvidSettings, profile: Profile, faults: ActiveFaults): TlsOptions {
  // A fault that accepts what OpenSSL refuses needs the verdict after the handshake instead of at it.
  const lenient = Object.keys(TOLERATED).some((id) => faults.has(id));
  return {
    cert: s.chainPem,
    key: s.keyPem,
    ca: s.anchorsPem,
    requestCert: true,
    rejectUnauthorized: !lenient,
    // MIAF-TLS13-DEFAULT: TLS 1.2 even with a client that offers 1.3.
    ...(faults.has('MIAF-TLS13-DEFAULT') ? { minVersion: 'TLSv1.2' as const, maxVersion: 'TLSv1.2' as const } : { minVersion: profile.tlsMinVersion }),
  };
}

/** Whether a handshaken connection is a client of this WFM: an SVID of the right shape, trust domain and wfm-id. */
export function judgePeer(socket: TLSSocket, s: WfmSvidSettings, vendor: string, faults: ActiveFaults, now = new Date()): PeerVerdict {
  const raw = socket.getPeerCertificate();
  if (!raw || !raw.raw) return faults.has('MIAF-MTLS-EVERY-REQUEST') ? { ok: true, spiffeId: '' } : { ok: false, reason: 'no client certificate' };
  const error = socket.authorizationError ? String((socket.authorizationError as Error & { code?: string }).code ?? socket.authorizationError) : undefined;
  if (!socket.authorized && !Object.entries(TOLERATED).some(([id, codes]) => faults.has(id) && error !== undefined && codes.includes(error))) {
    return { ok: false, reason: `chain does not validate against the trust bundle: ${error ?? 'unknown'}` };
  }
  const leaf = new x509.X509Certificate(raw.raw);
  const skipped = new Set<string>();
  // SVID-TRUST-DOMAIN: the trust domain is never compared; SVID-NOT-EXPIRED: validity is never read; SVID-LEAF-NOT-CA: nor is cA.
  if (faults.has('SVID-NOT-EXPIRED')) skipped.add('svid-validity');
  // (A CA certificate also carries keyCertSign, so the fault reads neither.)
  if (faults.has('SVID-LEAF-NOT-CA')) for (const rule of ['svid-leaf-ca', 'svid-leaf-cert-sign']) skipped.add(rule);
  // SVID-LEAF-NO-CERT-SIGN: key usages are never read; SVID-ONE-URI-SAN: the first URI SAN counts; SVID-SPIFFE-SCHEME: nor is the URI read.
  if (faults.has('SVID-LEAF-NO-CERT-SIGN')) skipped.add('svid-leaf-cert-sign');
  if (faults.has('SVID-ONE-URI-SAN')) skipped.add('svid-one-uri-san');
  if (faults.has('SVID-SPIFFE-SCHEME')) skipped.add('svid-spiffe-id');
  // SVID-KEY-ALG: P-256, the mandatory key, is missing from the allow-list.
  const keyAlgorithms = faults.has('SVID-KEY-ALG') ? SVID_KEY_ALGORITHMS.filter((k) => k !== 'P-256') : SVID_KEY_ALGORITHMS;
  const findings = svidLeafFindings(leaf, { at: now, keyAlgorithms, ...(!faults.has('SVID-TRUST-DOMAIN') && { trustDomain: s.trustDomain }) }).filter((f) => !skipped.has(f.rule));
  if (findings.length) return { ok: false, reason: findings.map((f) => f.message).join('; ') };
  // SVID-NO-DNS-IDENTITY: a DNS name beside the SPIFFE ID makes the certificate suspect.
  const names = leaf.getExtension(x509.SubjectAlternativeNameExtension)?.names.items ?? [];
  if (faults.has('SVID-NO-DNS-IDENTITY') && names.some((n) => n.type === 'dns')) return { ok: false, reason: 'a client SVID with DNS names (fault)' };
  const spiffeId = names.find((n) => n.type === 'url')?.value;
  if (spiffeId === undefined || (faults.has('SVID-SPIFFE-SCHEME') && identityOf(spiffeId) === undefined)) {
    return faults.has('SVID-SPIFFE-SCHEME') ? { ok: true, spiffeId: `cn:${leaf.subject}` } : { ok: false, reason: 'no URI SAN' };
  }
  const who = identityOf(spiffeId);
  if (who?.role !== 'client') return { ok: false, reason: `${spiffeId} is not a client SPIFFE ID (spiffe://<td>/<vendor>/wfm/<wfm-id>/client/<client-id>)` };
  // SVID-WFM-ID: any wfm-id (and vendor) is taken for this WFM's.
  if (!faults.has('SVID-WFM-ID') && (who.vendor !== vendor || who.wfmId !== s.wfmId)) {
    return { ok: false, reason: `${spiffeId} is a client of ${who.vendor}/wfm/${who.wfmId}, not of ${vendor}/wfm/${s.wfmId}` };
  }
  // SVID-KEY-ALG-OPTIONAL: an optional key passes the handshake but never names its client (the request gets 403).
  const key = svidKeyAlgorithm(leaf);
  if (faults.has('SVID-KEY-ALG-OPTIONAL') && !('known' in key && key.known === 'P-256')) return { ok: true, spiffeId: `${spiffeId}#unmapped` };
  return { ok: true, spiffeId };
}
