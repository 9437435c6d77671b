// §2.5: "Every SPIFFE ID issued by the identity role MUST belong to trustDomain." A SPIFFE ID is
// `spiffe://<trust-domain>[/<path>]`; it belongs to the trust domain its authority names. Parsed by spec/spiffe-id.ts
// (the one SPIFFE grammar of the kit), so an ID it refuses (an uppercase trust domain, say) belongs to no domain.
import type { x509 } from '../x509.ts';
import { trustDomainOf } from '../spiffe-id.ts';
import { uriSansOf } from './svid-leaf.ts';

/** The trust domain of a SPIFFE ID, or undefined when `uri` is not one. */
export function spiffeTrustDomain(uri: string): string | undefined {
  return trustDomainOf(uri);
}

/** The SPIFFE IDs a certificate carries as URI SANs (X509-SVID §2). */
export function spiffeIdsOf(cert: x509.X509Certificate): string[] {
  return uriSansOf(cert).filter((uri) => /^spiffe:/i.test(uri));
}

export function belongsTo(spiffeId: string, trustDomain: string): boolean {
  return spiffeTrustDomain(spiffeId) === trustDomain;
}
