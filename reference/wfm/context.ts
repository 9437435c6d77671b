// What every route of the reference WFM receives: the service's state and settings, and one parsed request.
import type { IncomingHttpHeaders } from 'node:http';
import type { Profile } from '../../spec/profile.ts';
import type { X509Certificate } from 'node:crypto';
import type { WfmStore } from './store.ts';
import type { WfmDecisions } from './decisions/index.ts';

export interface WfmContext {
  store: WfmStore;
  profile: Profile;
  /** Device CAs whose leaf certificates are trusted at onboarding. */
  trustedDeviceCas: X509Certificate[];
  /** PEM served by the Certificate API (P2). */
  rootCaPem: string;
  /** What this WFM decides where a faulty variant decides otherwise (cleanWfmDecisions for the clean service). */
  decisions: WfmDecisions;
}

export interface WfmRequest {
  method: string;
  /** The absolute target URI the client signed: the scheme served on, the Host header and the request target. */
  targetUri: string;
  headers: IncomingHttpHeaders;
  /** Path parameters, percent-decoded; `deviceId` keeps its `/` separators. */
  params: Record<string, string>;
  body: Buffer;
  /** P10 (mtls): the SPIFFE ID of the client SVID the connection presented ('' under a fault that admits none). */
  peer?: string;
  /** SHA-256 fingerprint of that certificate (decision acceptsCertificateOf). */
  peerCertificate?: string;
}
