// What the reference identity role decides (§2.5, §2.6, §4.5, §4.6, §5): a faulty variant replaces single decisions
// (reference/faults/identity.ts) instead of branching on fault ids.
import { ifNoneMatchHits } from '../../protocol/conditional.ts';

export interface IdentityDecisions {
  /** §5: the discovery document and the trust bundle are served over HTTPS. */
  servesHttps: boolean;
  /** §4.5: each further trust domain's discovery URL serves that domain's own document. */
  servesEachDomainsDiscovery: boolean;
  /** §4.5: the discovery document is read-only: a DELETE is refused (405) like any method but GET and HEAD. */
  discoveryReadOnly: boolean;
  /** §4.5, §4.6: a document is answered 304 to this If-None-Match. */
  notModified(kind: 'discovery' | 'bundle', ifNoneMatch: string | undefined, etag: string): boolean;
  /** X509-SVID §3.2: the SPIFFE ID a trust anchor (SVID signing certificate) of `trustDomain` carries. */
  anchorSpiffeId(trustDomain: string): string;
  /** §2.6: the bundle also lists an intermediate CA (issued by the anchor) as an x509-svid entry. */
  listsIntermediateAsAnchor: boolean;
  /** P5: finishing a rotation drops the old anchor (the overlap ends). */
  finishDropsOldAnchor: boolean;
}

export const cleanIdentityDecisions: IdentityDecisions = Object.freeze<IdentityDecisions>({
  servesHttps: true,
  servesEachDomainsDiscovery: true,
  discoveryReadOnly: true,
  notModified: (_kind, ifNoneMatch, etag) => ifNoneMatchHits(ifNoneMatch, etag),
  // A signing certificate SHOULD be an SVID whose ID is its trust domain's, with no path.
  anchorSpiffeId: (trustDomain) => `spiffe://${trustDomain}`,
  listsIntermediateAsAnchor: false,
  finishDropsOldAnchor: true,
});
