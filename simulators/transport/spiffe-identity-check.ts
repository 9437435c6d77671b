// P10's check of the server a client talks to: the WFM's leaf is no CA and names exactly the WFM's SPIFFE ID. The
// kit's own client under test may overlook one part of it (a client fault).
import type { PeerCertificate } from 'node:tls';
import { x509 } from '../../spec/x509.ts';
import { SERVER_IDENTITY_CODE } from './classify.ts';

/** By fingerprint: whether a certificate's basicConstraints say cA (a server shows the same leaf on every connection). */
const caByFingerprint = new Map<string, boolean>();

/**
 * basicConstraints cA, read from the certificate itself: PeerCertificate.ca is OpenSSL's X509_check_ca, which also
 * asks for keyCertSign, so a cA leaf with digitalSignature alone (the impostor P10's leaf rules refuse) reads false.
 */
function claimsCa(cert: PeerCertificate): boolean {
  let known = caByFingerprint.get(cert.fingerprint256);
  if (known === undefined) {
    known = new x509.X509Certificate(cert.raw).getExtension(x509.BasicConstraintsExtension)?.ca === true;
    if (caByFingerprint.size > 1_000) caByFingerprint.clear();
    caByFingerprint.set(cert.fingerprint256, known);
  }
  return known;
}

/** What a verifier may overlook (the kit's own client under test only: each a client fault of simulators/faults/). */
export interface SpiffeCheckLeniency {
  /** Compares the SPIFFE ID's path only, not its trust domain. */
  trustDomain?: boolean;
  /** Takes the first URI SAN for the identity, however many there are. */
  firstUri?: boolean;
  /** Never reads basicConstraints: a CA certificate passes as the leaf. */
  caLeaf?: boolean;
}

/**
 * P10 (MIAF-CLIENT-CHECKS-SERVER-ID, MIAF-CLIENT-VERIFIES-SERVER-SVID): the server's leaf is no CA and names exactly
 * this SPIFFE ID in its one URI SAN, or the connection aborts. Chain and validity dates are the TLS stack's.
 */
export function spiffeIdentityCheck(
  expected: string,
  lenient: SpiffeCheckLeniency = {},
): (host: string, cert: PeerCertificate) => Error | undefined {
  const pathOf = (id: string) => id.replace(/^spiffe:\/\/[^/]*/, '');
  return (_host, cert) => {
    const uris = (cert.subjectaltname ?? '')
      .split(', ')
      .filter((n) => n.startsWith('URI:'))
      .map((n) => n.slice(4));
    const fail = (why: string) => Object.assign(new Error(`${why} (P10: a client aborts)`), { code: SERVER_IDENTITY_CODE });
    if (!lenient.caLeaf && claimsCa(cert))
      return fail(`the server's leaf is a CA certificate (basicConstraints cA true), not an X.509-SVID leaf`);
    const id = lenient.firstUri || uris.length === 1 ? uris[0] : undefined;
    if (id !== undefined && (id === expected || (lenient.trustDomain && pathOf(id) === pathOf(expected)))) return undefined;
    return fail(`the server is ${uris.length === 1 ? uris[0] : `${uris.length} URI SANs`}, not the WFM ${expected}`);
  };
}
