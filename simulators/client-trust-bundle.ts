// The trust bundle client of the kit's client under test (§4.5, §4.6): operator configuration from the startClient
// input, HTTPS authenticated by the initial-trust CA the client was given (§5: not by an SVID).
import { Agent, buildConnector } from 'undici';
import { TrustBundleClient, type CachedBundle } from './device/trust-bundle-client.ts';
import type { ConnectionDecisions, TrustBundleDecisions } from './device/decisions/index.ts';
import { createTransport, type UndiciTransport } from './transport/undici-transport.ts';
import { spiffeIdentityCheck, type SpiffeCheckLeniency } from './transport/spiffe-identity-check.ts';
import { lookup } from '../protocol/pinned-lookup.ts';

export interface BundleSource {
  discoveryUrl?: string;
  trustBundleUri?: string;
  /** §4.6 rule 4: the operator-configured interval, seconds. */
  refreshSeconds?: number;
}

/** An hour: the cadence of a client whose operator configured none and whose bundle carries no hint. */
const DEFAULT_REFRESH_SECONDS = 3600;

export function startBundleClient(
  source: BundleSource,
  caPem: string,
  decisions: TrustBundleDecisions & ConnectionDecisions,
  ownSpiffeId?: string,
  cached?: CachedBundle,
): { client: TrustBundleClient; close(): Promise<void> } | undefined {
  if (source.discoveryUrl === undefined && source.trustBundleUri === undefined) return undefined;
  const verified = createTransport({ ca: caPem, timeoutMs: 5_000, maxResponseBytes: 256 * 1024 });
  // A faulty client verifies no identity endpoint's certificate, or none on another origin than the discovery document's.
  const verifies = decisions.verifiesIdentityCertificates;
  const anyCert = verifies !== 'every-origin' ? new Agent({ connect: { rejectUnauthorized: false, timeout: 5_000, lookup } }) : undefined;
  const unverified = anyCert && createTransport({ dispatcher: anyCert, timeoutMs: 5_000, maxResponseBytes: 256 * 1024 });
  const discoveryOrigin = source.discoveryUrl === undefined ? undefined : new URL(source.discoveryUrl).origin;
  const transportFor = (url: string): UndiciTransport =>
    unverified && (verifies === 'none' || new URL(url).origin !== discoveryOrigin) ? unverified : verified;
  const client = new TrustBundleClient({
    fetch: (url, headers) => transportFor(url).request({ method: 'GET', url, headers }),
    ...(source.discoveryUrl !== undefined && { discoveryUrl: source.discoveryUrl }),
    ...(source.trustBundleUri !== undefined && { trustBundleUri: source.trustBundleUri }),
    operatorIntervalMs: (source.refreshSeconds ?? DEFAULT_REFRESH_SECONDS) * 1000,
    ...(ownSpiffeId !== undefined && { ownSpiffeId }),
    ...(cached && { cached }),
    // The initial trust is a CA set: the TLS handshake decides which origins it covers (rule 7).
    coveredOrigins: 'tls',
    decisions,
  });
  return {
    client,
    async close() {
      await verified.close();
      await unverified?.close();
      await anyCert?.close();
    },
  };
}

/**
 * P10 with §4.6: connections to the WFM validated against the trust bundle's anchors as they are at each handshake, so
 * a replaced bundle governs the next connection; with no accepted bundle nothing connects (rule 1: fail closed).
 */
export function anchoredAgent(
  anchors: () => string[] | undefined,
  o: {
    clientCert?: { cert: string; key: string };
    serverSpiffeId?: string;
    serverLeniency?: SpiffeCheckLeniency;
    acceptUnverifiedServer?: boolean;
    maxTlsVersion?: 'TLSv1.2' | 'TLSv1.3';
  },
): Agent {
  return new Agent({
    connections: 1,
    keepAliveTimeout: 4_000,
    connect: (opts, callback) => {
      const ca = anchors();
      if (!ca || ca.length === 0)
        return callback(new Error("§4.6 rule 1: no accepted trust bundle, no anchor to validate the WFM's SVID (fail closed)"), null);
      buildConnector({
        ca,
        timeout: 5_000,
        lookup,
        ...(o.clientCert && { cert: o.clientCert.cert, key: o.clientCert.key }),
        ...(o.serverSpiffeId !== undefined && { checkServerIdentity: spiffeIdentityCheck(o.serverSpiffeId, o.serverLeniency) }),
        ...(o.acceptUnverifiedServer && { rejectUnauthorized: false }),
        ...(o.maxTlsVersion && { maxVersion: o.maxTlsVersion }),
      })(opts, callback);
    },
  });
}
