// Every decision of the kit's device client, one interface per area: the clean client takes `cleanClientDecisions`,
// a faulty one replaces single decisions (simulators/faults/, keyed by the ids of faults/catalog.yaml). One object
// travels in the device's env (DeviceEnvironment.decisions) to every part of the client that decides.
import { cleanCapabilitiesDecisions, type CapabilitiesDecisions } from './capabilities.ts';
import { cleanComposeDecisions, type ComposeDecisions } from './compose.ts';
import { cleanConnectionDecisions, type ConnectionDecisions } from './connection.ts';
import { cleanDesiredStateDecisions, type DesiredStateDecisions } from './desired-state.ts';
import { cleanStatusDecisions, type StatusDecisions } from './status.ts';
import { cleanTrustBundleDecisions, type TrustBundleDecisions } from './trust-bundle.ts';

export interface ClientDecisions
  extends ConnectionDecisions, CapabilitiesDecisions, DesiredStateDecisions, StatusDecisions, ComposeDecisions, TrustBundleDecisions {}

export const cleanClientDecisions: ClientDecisions = Object.freeze({
  ...cleanConnectionDecisions,
  ...cleanCapabilitiesDecisions,
  ...cleanDesiredStateDecisions,
  ...cleanStatusDecisions,
  ...cleanComposeDecisions,
  ...cleanTrustBundleDecisions,
});

export type { CapabilitiesDecisions, ComposeDecisions, ConnectionDecisions, DesiredStateDecisions, StatusDecisions, TrustBundleDecisions };
export type { DocumentAt } from './capabilities.ts';
export type { IdentityResource } from './trust-bundle.ts';
export { cleanCapabilitiesDecisions } from './capabilities.ts';
export { cleanComposeDecisions } from './compose.ts';
export { cleanConnectionDecisions } from './connection.ts';
export { cleanDesiredStateDecisions } from './desired-state.ts';
export { cleanStatusDecisions } from './status.ts';
export { cleanTrustBundleDecisions } from './trust-bundle.ts';
