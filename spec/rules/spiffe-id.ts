// §2.5: "Every SPIFFE ID issued by the identity role MUST belong to trustDomain." A SPIFFE ID is
// `spiffe://<trust-domain>[/<path>]`; it belongs to the trust domain its authority names (lowercase in SPIFFE).
import type { x509 } from '../x509.ts';
import { uriSansOf } from './svid-leaf.ts';

/** The trust domain of a SPIFFE ID, or undefined when `uri` is not one. */
export function spiffeTrustDomain(uri: string): string | undefined {
  return /^spiffe:\/\/([^/?#]+)(?:\/[^?#]*)?$/i.exec(uri)?.[1]?.toLowerCase();
}

/** The SPIFFE IDs a certificate carries as URI SANs (X509-SVID §2). */
export function spiffeIdsOf(cert: x509.X509Certificate): string[] {
  return uriSansOf(cert).filter((uri) => /^spiffe:/i.test(uri));
}

export function belongsTo(spiffeId: string, trustDomain: string): boolean {
  return spiffeTrustDomain(spiffeId) === trustDomain.toLowerCase();
}
