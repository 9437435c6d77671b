// Client faults of the trust bundle client (§2.5, §2.6, §4.5, §4.6 rules 1-7): where it reads the bundle URI, what it
// accepts, keeps or replaces, how it revalidates and when it refreshes (simulators/device/decisions/trust-bundle.ts).
import type { IdentityResource } from '../device/decisions/index.ts';
import type { ClientFaultImplementation, ClientFaultTable } from './types.ts';

/** A cadence that never comes. */
const NEVER_MS = 1e12;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A browser's Accept on one resource. */
const acceptingHtml =
  (resource: IdentityResource): ClientFaultImplementation =>
  (base) => ({ identityAccept: (r) => (r === resource ? 'text/html' : base.identityAccept(r)) });

/** Revalidates one resource with the first ETag it ever accepted, not the last. */
function firstEtagForever(resource: IdentityResource): ClientFaultImplementation {
  return (base) => {
    let first: string | undefined;
    return {
      identityEtagReceived: (r, etag) => {
        if (r === resource) first ??= etag;
        base.identityEtagReceived(r, etag);
      },
      identityRevalidationEtag: (r, last) => (r === resource && last !== undefined ? first : base.identityRevalidationEtag(r, last)),
    };
  };
}

export const implementations: ClientFaultTable = {
  'DISC-ACCEPT-JSON': acceptingHtml('discovery'),
  'BUNDLE-ACCEPT-JSON': acceptingHtml('bundle'),
  'DISC-IF-NONE-MATCH': firstEtagForever('discovery'),
  'BUNDLE-IF-NONE-MATCH': firstEtagForever('bundle'),
  'DISC-CLIENT-IGNORE-UNKNOWN': () => ({ refusesUnknownDiscoveryFields: true }),
  // Without a discovery URL it never reads the trust bundle URI its operator configured.
  'DISC-OPERATOR-CONFIG': () => ({ readsOperatorBundleUri: false }),
  'BUNDLE-CLIENT-HTTPS-ONLY': () => ({ requiresHttpsBundleUri: false }),
  // The hint is ignored: the operator interval rules.
  'BUNDLE-REFRESH-HINT': () => ({ refreshDelay: (_bundle, operatorIntervalMs) => operatorIntervalMs }),
  // Without a hint there is no cadence at all.
  'BUNDLE-REFRESH-CONFIGURED': (base) => ({
    refreshDelay: (bundle, operatorIntervalMs, maxAgeMs) =>
      typeof bundle?.spiffe_refresh_hint === 'number' ? base.refreshDelay(bundle, operatorIntervalMs, maxAgeMs) : NEVER_MS,
  }),
  // HTTP caching defers the refresh the cadence asks for.
  'BUNDLE-REFRESH-NOT-DEFERRED': (base) => ({
    refreshDelay: (bundle, operatorIntervalMs, maxAgeMs) => Math.max(base.refreshDelay(bundle, operatorIntervalMs, maxAgeMs), maxAgeMs),
  }),
  // The discovery document's trust domain is never compared with its own SVID's.
  'BUNDLE-TRUSTDOMAIN-MATCH': () => ({ comparesTrustDomain: false }),
  'BUNDLE-CLIENT-TOLERATE-UNKNOWN': () => ({ refusesUnknownBundleMembers: true }),
  // Every key with a certificate is taken as an x509-svid anchor, whatever its use.
  'BUNDLE-IGNORE-NON-X509': (base) => ({
    bundleAsRead: (served) => {
      const bundle = base.bundleAsRead(served);
      if (!isObject(bundle) || !Array.isArray(bundle['keys'])) return bundle;
      return {
        ...bundle,
        keys: (bundle['keys'] as unknown[]).map((k) => (isObject(k) && Array.isArray(k['x5c']) ? { ...k, use: 'x509-svid' } : k)),
      };
    },
  }),
  // A bundle with no x509-svid entry is taken: no anchors at all.
  'BUNDLE-REJECT-NO-ANCHORS': () => ({ takesBundleWithoutAnchors: true }),
  // The bundle is thrown away when the endpoint answers an error, or cannot be reached.
  'BUNDLE-KEEP-CURRENT': (base) => ({ keepsBundleWhen: (failure) => failure !== 'error-answer' && base.keepsBundleWhen(failure) }),
  'BUNDLE-OFFLINE-KEEP-CACHED': (base) => ({ keepsBundleWhen: (failure) => failure !== 'unreachable' && base.keepsBundleWhen(failure) }),
  // A retrieved bundle's anchors are added to the ones it held.
  'BUNDLE-NO-COMBINE': () => ({ replacesAnchors: false }),
  // Its trust bundle lives in memory only (decision of its connections, simulators/device/decisions/connection.ts).
  'BUNDLE-CACHE-LOCAL': () => ({ cachesBundleOnDisk: false }),
  // §5, rule 7: no identity endpoint's certificate is verified, or none on another origin than the discovery document's.
  'AUTH-IDENTITY-INITIAL-TRUST': () => ({ verifiesIdentityCertificates: 'none' }),
  'BUNDLE-CROSS-ORIGIN-TRUST': () => ({ verifiesIdentityCertificates: 'discovery-origin-only' }),
};
