// What the kit's device client decides about its connections to the WFM and the identity role (P3 signatures, P10
// mutual TLS, §5): a faulty client replaces single decisions (simulators/faults/connection.ts).
import type { SpiffeCheckLeniency } from '../../transport/spiffe-identity-check.ts';
import type { RequestSigner } from '../../transport/types.ts';

export interface ConnectionDecisions {
  /** P10: the client presents its X.509-SVID at the handshake. */
  presentsSvid: boolean;
  /** P10: the server's SPIFFE ID is compared with the WFM's own. */
  checksServerSpiffeId: boolean;
  /** P10: what that comparison overlooks (none when clean). */
  serverIdLeniency: SpiffeCheckLeniency;
  /** P10: a server chain the TLS stack refuses (an expired SVID) is taken all the same. */
  acceptsUnverifiedServer: boolean;
  /** P10: the highest TLS version it offers (undefined: its stack's highest). */
  maxTlsVersion: 'TLSv1.2' | undefined;
  /** P10: a Retry-After holds its next request for that long. */
  honoursRetryAfter: boolean;
  /** P3: what its signatures leave out (nothing when clean). */
  signatureOmits: RequestSigner['omit'];
  /** P3: the hash of its certificate its keyid is. */
  keyIdHash: 'sha256' | 'sha1';
  /** P3: the requests it sends unsigned although the profile signs them (none when clean). */
  unsignedRequests: 'onboarding' | 'after-onboarding' | undefined;
  /** §2.3: the OnboardingRequest it sends for its certificate (base64 DER); the certificate alone asks for the standard body. */
  onboardingBody(certificate: string): string | Record<string, unknown>;
  /** §4.6 rule 5: its trust bundle is cached on its disk, so it survives a restart. */
  cachesBundleOnDisk: boolean;
  /** §5, §4.6 rule 7: the identity endpoints whose certificates it verifies by its initial trust. */
  verifiesIdentityCertificates: 'every-origin' | 'discovery-origin-only' | 'none';
}

export const cleanConnectionDecisions: ConnectionDecisions = {
  presentsSvid: true,
  checksServerSpiffeId: true,
  serverIdLeniency: {},
  acceptsUnverifiedServer: false,
  maxTlsVersion: undefined,
  honoursRetryAfter: true,
  signatureOmits: undefined,
  keyIdHash: 'sha256',
  unsignedRequests: undefined,
  onboardingBody: (certificate) => certificate,
  cachesBundleOnDisk: true,
  verifiesIdentityCertificates: 'every-origin',
};
