// What the reference WFM decides about who sent a Device API request (P3: Content-Digest, signature, local policy):
// a faulty variant replaces single decisions (reference/faults/onboarding.ts, status.ts, desired-state.ts).
import type { ContentDigestVerdict } from '../../../protocol/content-digest.ts';
import { p3CoveredComponents, type VerifyFailure } from '../../../protocol/signing.ts';

export interface AuthDecisions {
  /** §4.1-§4.4: a retired client is still served (no 403 after retirement). */
  acceptsRetiredClient: boolean;
  /** §4.4: a retired client's status reports are still accepted. */
  acceptsStatusOfRetiredClient: boolean;
  /** P4: a path naming another client serves that client's desired state to any client whose request authenticates. */
  servesOtherClients: boolean;
  /** P3: a request body with this Content-Digest verdict passes on to the signature check (else 400). */
  acceptsContentDigest(verdict: ContentDigestVerdict): boolean;
  /** P3: the status refusing a signature that failed for this reason (401: the request is not authenticated). */
  signatureRefusalStatus(reason: VerifyFailure): number;
  /** P3: the status refusing a signature by the key of a certificate never onboarded. */
  unknownKeyStatus: number;
  /** P3: an onboarded client's signatures with this algorithm are verified (not refused as unsupported). */
  acceptsSignatureAlgorithm(algorithm: string): boolean;
  /** P3, RFC 9421 §3.2.1: the components a signature must cover, else verification fails (401). */
  requiredCoveredComponents(hasBody: boolean): readonly string[];
}

export const cleanAuthDecisions: AuthDecisions = {
  acceptsRetiredClient: false,
  acceptsStatusOfRetiredClient: false,
  servesOtherClients: false,
  acceptsContentDigest: (verdict) => verdict === 'ok',
  signatureRefusalStatus: () => 401,
  unknownKeyStatus: 403,
  acceptsSignatureAlgorithm: () => true,
  requiredCoveredComponents: p3CoveredComponents,
};
