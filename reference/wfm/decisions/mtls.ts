// What the reference WFM decides about mutual TLS and X.509-SVIDs (P10, edition miaf): the handshake, the SVID rules
// judged after it, and which client a connection is. A faulty variant replaces single decisions (reference/faults/miaf.ts).
import { SVID_KEY_ALGORITHMS, type SvidKeyAlgorithm } from '../../../spec/rules/svid-leaf.ts';
import type { Client } from '../store.ts';

export interface MtlsDecisions {
  /** OpenSSL refuses a client chain the trust bundle does not validate at the handshake (else the verdict comes after it). */
  verifiesChainAtHandshake: boolean;
  /** A chain OpenSSL refused with this code (CERT_HAS_EXPIRED, INVALID_CA...) is let in after the handshake. */
  toleratesChainError(code: string): boolean;
  /** A connection without a client certificate is let in (its requests then name no client). */
  admitsConnectionWithoutCertificate: boolean;
  /** TLS 1.3 is offered (the profile's lowest version and up), not TLS 1.2 alone. */
  offersTls13: boolean;
  /** A rule of spec/rules/svid-leaf.ts (`svid-validity`, `svid-leaf-ca`...) that is never judged. */
  overlooksSvidRule(rule: string): boolean;
  /** The key algorithms a client SVID may have. */
  svidKeyAlgorithms: readonly SvidKeyAlgorithm[];
  /** A client SVID's trust domain is compared with the WFM's. */
  comparesSvidTrustDomain: boolean;
  /** A client SVID's vendor and wfm-id are compared with the WFM's own. */
  comparesSvidWfmId: boolean;
  /** A client SVID that also carries DNS names is refused. */
  refusesSvidWithDnsNames: boolean;
  /** A leaf whose URI SAN is no SPIFFE ID (or that has none) gets in, its client named by its CN. */
  namesClientWithoutSpiffeIdByCn: boolean;
  /** A client SVID with an optional key algorithm (P-384, Ed25519, RSA) names its client like a P-256 one. */
  mapsOptionalKeyAlgorithms: boolean;
  /** The <wfm-id> of the SVID the WFM presents, for its own `wfmId`. */
  presentedWfmId(wfmId: string): string;
  /** A rotation of the trust bundle reaches the WFM's TLS verifier (new connections validate against the new anchors). */
  followsTrustBundleRotation: boolean;
  /** The seed edition's request signature is still demanded over mutual TLS. */
  requiresSignatureOverMtls: boolean;
  /** A SPIFFE ID the local policy never admitted is admitted on first use. */
  admitsUnknownSpiffeIds: boolean;
  /** A client's request over a connection with this certificate (SHA-256 fingerprint) is its own: its SPIFFE ID names it. */
  acceptsCertificateOf(client: Client, fingerprint: string | undefined): boolean;
}

export const cleanMtlsDecisions: MtlsDecisions = {
  verifiesChainAtHandshake: true,
  toleratesChainError: () => false,
  admitsConnectionWithoutCertificate: false,
  offersTls13: true,
  overlooksSvidRule: () => false,
  svidKeyAlgorithms: SVID_KEY_ALGORITHMS,
  comparesSvidTrustDomain: true,
  comparesSvidWfmId: true,
  refusesSvidWithDnsNames: false,
  namesClientWithoutSpiffeIdByCn: false,
  mapsOptionalKeyAlgorithms: true,
  presentedWfmId: (wfmId) => wfmId,
  followsTrustBundleRotation: true,
  requiresSignatureOverMtls: false,
  admitsUnknownSpiffeIds: false,
  acceptsCertificateOf: () => true,
};
