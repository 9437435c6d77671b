// What the kit's trust bundle client decides (§2.5, §2.6, §4.5, §4.6 rules 1-7): where it reads the bundle URI, what
// it accepts, keeps or replaces, how it revalidates and when it refreshes. A faulty client replaces single decisions
// (simulators/faults/trust-bundle.ts).
import { refreshDelayMs } from '../../../spec/rules/trust-bundle.ts';
import type { TrustBundle } from '../../../spec/types.ts';

export type IdentityResource = 'discovery' | 'bundle';

export interface TrustBundleDecisions {
  /** §4.5: without a discovery document, the trust bundle URI comes from operator configuration. */
  readsOperatorBundleUri: boolean;
  /** §4.6: a trust bundle URI that is not https is refused (the discovery document's as well as a configured one). */
  requiresHttpsBundleUri: boolean;
  /** §4.6 rule 6: the discovery document's trust domain is compared with the client's own SVID's. */
  comparesTrustDomain: boolean;
  /** §2.5: a discovery document with a field §2.5 does not name is refused. */
  refusesUnknownDiscoveryFields: boolean;
  /** §2.6: a trust bundle with a member §2.6 does not name is refused. */
  refusesUnknownBundleMembers: boolean;
  /** §2.6: the bundle as the client reads it, before the rules judge it (as served when clean). */
  bundleAsRead(bundle: unknown): unknown;
  /** §4.6 rule 2: a bundle without any x509-svid anchor is taken (the client then has no anchors at all). */
  takesBundleWithoutAnchors: boolean;
  /** §4.6 rule 3: an accepted bundle's anchors replace the ones held (never combined). */
  replacesAnchors: boolean;
  /** §4.6 rule 5: the bundle in use is kept when a retrieval fails this way. */
  keepsBundleWhen(failure: 'unreachable' | 'error-answer'): boolean;
  /** §4.6 rule 4: milliseconds to the next retrieval, from the bundle in use, the operator interval and HTTP max-age. */
  refreshDelay(bundle: TrustBundle | undefined, operatorIntervalMs: number, maxAgeMs: number): number;
  /** §4.5, §4.6: the Accept of a retrieval. */
  identityAccept(resource: IdentityResource): string;
  /** §4.5, §4.6: what it remembers of a document it accepted (nothing when clean). */
  identityEtagReceived(resource: IdentityResource, etag: string | undefined): void;
  /** §4.5, §4.6: the If-None-Match of a retrieval, given the ETag of the last document it accepted. */
  identityRevalidationEtag(resource: IdentityResource, last: string | undefined): string | undefined;
}

export const cleanTrustBundleDecisions: TrustBundleDecisions = {
  readsOperatorBundleUri: true,
  requiresHttpsBundleUri: true,
  comparesTrustDomain: true,
  refusesUnknownDiscoveryFields: false,
  refusesUnknownBundleMembers: false,
  bundleAsRead: (bundle) => bundle,
  takesBundleWithoutAnchors: false,
  replacesAnchors: true,
  keepsBundleWhen: () => true,
  // Rule 4: the cadence alone decides; Cache-Control and Expires of the answers are never consulted.
  refreshDelay: (bundle, operatorIntervalMs) => refreshDelayMs(bundle, operatorIntervalMs),
  identityAccept: () => 'application/json',
  identityEtagReceived: () => undefined,
  identityRevalidationEtag: (_resource, last) => last,
};
