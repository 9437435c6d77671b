// Every decision of the reference WFM, one interface per area: the clean service takes `cleanWfmDecisions`, a faulty
// variant replaces single decisions (reference/faults/, keyed by the ids of faults/catalog.yaml).
import { cleanAssignmentDecisions, type AssignmentDecisions } from './assignment.ts';
import { cleanAuthDecisions, type AuthDecisions } from './auth.ts';
import { cleanCapabilitiesDecisions, type CapabilitiesDecisions } from './capabilities.ts';
import { cleanDesiredStateDecisions, type DesiredStateDecisions } from './desired-state.ts';
import { cleanMtlsDecisions, type MtlsDecisions } from './mtls.ts';
import { cleanOnboardingDecisions, type OnboardingDecisions } from './onboarding.ts';
import { cleanProblemDecisions, type ProblemDecisions } from './problems.ts';
import { cleanStatusDecisions, type StatusDecisions } from './status.ts';

export interface WfmDecisions
  extends
    CapabilitiesDecisions,
    OnboardingDecisions,
    AuthDecisions,
    MtlsDecisions,
    StatusDecisions,
    DesiredStateDecisions,
    ProblemDecisions,
    AssignmentDecisions {}

export const cleanWfmDecisions: WfmDecisions = Object.freeze({
  ...cleanCapabilitiesDecisions,
  ...cleanOnboardingDecisions,
  ...cleanAuthDecisions,
  ...cleanMtlsDecisions,
  ...cleanStatusDecisions,
  ...cleanDesiredStateDecisions,
  ...cleanProblemDecisions,
  ...cleanAssignmentDecisions,
});

export type {
  AssignmentDecisions,
  AuthDecisions,
  CapabilitiesDecisions,
  DesiredStateDecisions,
  MtlsDecisions,
  OnboardingDecisions,
  ProblemDecisions,
  StatusDecisions,
};
export type { ReportView } from './status.ts';
export type { Layer } from './assignment.ts';
