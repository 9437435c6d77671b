// P10 (miaf): the reference WFM's mutual TLS. OpenSSL validates the client chain against the current trust bundle
// (an alert for no certificate, an unknown CA or an expired leaf); the SVID rules OpenSSL does not know (leaf shape,
// trust domain, wfm-id) are judged right after the handshake, and a refused connection is closed before any HTTP.
import type { TLSSocket, TlsOptions } from 'node:tls';
import type { Profile } from '../../spec/profile.ts';
import { svidLeafFacts, svidLeafFindings } from '../../spec/rules/svid-leaf.ts';
import { svidLeafFactsOfDer } from '../../spec/rules/svid-leaf-der.ts';
import { identityOf } from '../../spec/spiffe-id.ts';
import { x509 } from '../../spec/x509.ts';
import type { MtlsDecisions } from './decisions/index.ts';

export interface WfmSvidSettings {
  trustDomain: string;
  wfmId: string;
  /** The WFM's own X.509-SVID (leaf then intermediates) and key. */
  chainPem: string;
  keyPem: string;
  /** PEM anchors of the current trust bundle of the trust domain; setTrustAnchors replaces them on rotation. */
  anchorsPem: string[];
}

/** An admitted connection: the SPIFFE ID it proved and its leaf's SHA-256 fingerprint, read once per connection. */
export type PeerVerdict = { ok: true; spiffeId: string; fingerprint256?: string } | { ok: false; reason: string };

export function mtlsServerOptions(s: WfmSvidSettings, profile: Profile, decisions: MtlsDecisions): TlsOptions {
  return {
    cert: s.chainPem,
    key: s.keyPem,
    ca: s.anchorsPem,
    requestCert: true,
    // A WFM that accepts what OpenSSL refuses needs the verdict after the handshake instead of at it.
    rejectUnauthorized: decisions.verifiesChainAtHandshake,
    ...(decisions.offersTls13 ? { minVersion: profile.tlsMinVersion } : { minVersion: 'TLSv1.2' as const, maxVersion: 'TLSv1.2' as const }),
  };
}

/** Whether a handshaken connection is a client of this WFM: an SVID of the right shape, trust domain and wfm-id. */
export function judgePeer(socket: TLSSocket, s: WfmSvidSettings, vendor: string, decisions: MtlsDecisions, now = new Date()): PeerVerdict {
  const d = decisions;
  // The certificate object itself, not getPeerCertificate()'s rendering of every field (~4 against ~16 µs quiet).
  const leaf = socket.getPeerX509Certificate();
  if (!leaf) return d.admitsConnectionWithoutCertificate ? { ok: true, spiffeId: '' } : { ok: false, reason: 'no client certificate' };
  const error = socket.authorizationError
    ? String((socket.authorizationError as Error & { code?: string }).code ?? socket.authorizationError)
    : undefined;
  if (!socket.authorized && !(error !== undefined && d.toleratesChainError(error))) {
    return { ok: false, reason: `chain does not validate against the trust bundle: ${error ?? 'unknown'}` };
  }
  // The common shape is read straight from DER; anything else by @peculiar/x509 (same facts, ~2 ms a leaf).
  let facts = svidLeafFactsOfDer(leaf.raw);
  try {
    facts ??= svidLeafFacts(new x509.X509Certificate(leaf.raw));
  } catch (e) {
    return { ok: false, reason: `unreadable client certificate: ${(e as Error).message}` };
  }
  const findings = svidLeafFindings(facts, {
    at: now,
    keyAlgorithms: d.svidKeyAlgorithms,
    ...(d.comparesSvidTrustDomain && { trustDomain: s.trustDomain }),
  }).filter((f) => !d.overlooksSvidRule(f.rule));
  if (findings.length) return { ok: false, reason: findings.map((f) => f.message).join('; ') };
  if (d.refusesSvidWithDnsNames && facts.dnsNames.length > 0) return { ok: false, reason: 'a client SVID with DNS names (fault)' };
  const spiffeId = facts.uris[0];
  if (spiffeId === undefined || (d.namesClientWithoutSpiffeIdByCn && identityOf(spiffeId) === undefined)) {
    return d.namesClientWithoutSpiffeIdByCn
      ? { ok: true, spiffeId: `cn:${new x509.X509Certificate(leaf.raw).subject}`, fingerprint256: leaf.fingerprint256 }
      : { ok: false, reason: 'no URI SAN' };
  }
  const who = identityOf(spiffeId);
  if (who?.role !== 'client')
    return { ok: false, reason: `${spiffeId} is not a client SPIFFE ID (spiffe://<td>/<vendor>/wfm/<wfm-id>/client/<client-id>)` };
  if (d.comparesSvidWfmId && (who.vendor !== vendor || who.wfmId !== s.wfmId)) {
    return { ok: false, reason: `${spiffeId} is a client of ${who.vendor}/wfm/${who.wfmId}, not of ${vendor}/wfm/${s.wfmId}` };
  }
  // An optional key that is not mapped passes the handshake but never names its client (its requests get 403).
  const key = facts.key;
  if (!d.mapsOptionalKeyAlgorithms && !('known' in key && key.known === 'P-256'))
    return { ok: true, spiffeId: `${spiffeId}#unmapped`, fingerprint256: leaf.fingerprint256 };
  return { ok: true, spiffeId, fingerprint256: leaf.fingerprint256 };
}
