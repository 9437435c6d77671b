// What the reference WFM decides at the Certificate API and onboarding (§2.3, §4.3, P2, P3): a faulty variant replaces
// single decisions (reference/faults/onboarding.ts).
import { randomUUID } from 'node:crypto';
import type { VerifyFailure } from '../../../protocol/signing.ts';
import type { WfmStore } from '../store.ts';

export interface OnboardingDecisions {
  /** P2: the Certificate API wants a signed request, which no client can make before it has the CA. */
  certificateApiNeedsSignature: boolean;
  /** P3: an OnboardingRequest whose signature fails for this reason onboards its client all the same. */
  onboardsDespiteSignature(reason: VerifyFailure): boolean;
  /** P3: an unsigned OnboardingRequest is refused (401), yet its client is onboarded first. */
  onboardsUnsignedBeforeRefusing: boolean;
  /** §4.3: a retired client that sends its certificate again is onboarded again (no 403). */
  onboardsRetiredClient: boolean;
  /** §1: the clientId a new client gets. */
  newClientId(store: WfmStore): string;
  /** §4.3: a certificate outside its validity dates is not trusted (403). */
  checksCertificateValidity: boolean;
  /** §4.3: any issuer is trusted, not only the device CAs (and certificates the operator trusted). */
  trustsAnyIssuer: boolean;
  /** §2.3: a body whose kind is not OnboardingRequest is refused (400) as not an OnboardingRequest. */
  checksOnboardingKind: boolean;
}

export const cleanOnboardingDecisions: OnboardingDecisions = {
  certificateApiNeedsSignature: false,
  onboardsDespiteSignature: () => false,
  onboardsUnsignedBeforeRefusing: false,
  onboardsRetiredClient: false,
  newClientId: () => randomUUID(),
  checksCertificateValidity: true,
  trustsAnyIssuer: false,
  checksOnboardingKind: true,
};
