// What the kit's device client decides about its deployment status reports (§2.4, §2.4.1, §4.4) and the placements a
// see-thru gateway reports: a faulty client replaces single decisions (simulators/faults/status.ts, gateways.ts).
import type { DeploymentStatusReport } from '../../../spec/types.ts';
import type { Placement } from '../deployment-steps.ts';

export interface StatusDecisions {
  /** §1: it reports the status of what it applies. */
  reportsStatus: boolean;
  /** §2.4: the report it sends, given the one its deployment's state makes (`deviceId`: the reporting device's). */
  statusReport(report: DeploymentStatusReport, deviceId: string): DeploymentStatusReport;
  /** §2.4.1: a newer manifest that leaves a deployment as it was makes it report that deployment again at once. */
  reportsUnchangedDeploymentsAgain: boolean;
  /** §2.4.1: on fetching a newer manifest it reports the revision it still runs, before it holds the newer one. */
  reportsHeldRevisionOnFetch: boolean;
  /** §2.2, §2.4: where a see-thru gateway places a deployment for `target` (`place` is the clean choice). */
  placement(target: string | undefined, gatewayId: string, place: () => Placement): Placement;
}

export const cleanStatusDecisions: StatusDecisions = {
  reportsStatus: true,
  statusReport: (report) => report,
  reportsUnchangedDeploymentsAgain: false,
  reportsHeldRevisionOnFetch: false,
  placement: (_target, _gatewayId, place) => place(),
};
