// What the reference WFM decides about deployment status reports (§2.4, §4.4, P7): a faulty variant replaces single
// decisions (reference/faults/status.ts, miaf.ts).
import type { DeploymentStatusReport } from '../../../spec/types.ts';
import type { Finding } from '../../../spec/rules/finding.ts';
import type { WfmError } from '../http.ts';

/** What a status refusal may look at: the report, its deployment's components and the manifestVersion served now. */
export interface ReportView {
  report: DeploymentStatusReport;
  componentNames: readonly string[];
  currentVersion: number;
}

export interface StatusDecisions {
  /** §2.4 status is read as a list (the field table's type), so the one-object shape is refused (400). */
  readsStatusAsList: boolean;
  /** P10: a component without state is read as installed instead of refused. */
  readsMissingStateAsInstalled: boolean;
  /** §4.4: a report is checked against the DeploymentStatusReport schema (400). */
  checksStatusSchema: boolean;
  /** A finding that is overlooked, by its rule (spec/rules/status-report.ts and status.ts name them): the report is taken. */
  overlooksStatusFinding(finding: Finding): boolean;
  /** A refusal of a report the spec accepts (undefined: none). */
  statusRefusal(view: ReportView): WfmError | undefined;
}

export const cleanStatusDecisions: StatusDecisions = {
  readsStatusAsList: false,
  readsMissingStateAsInstalled: false,
  checksStatusSchema: true,
  overlooksStatusFinding: () => false,
  statusRefusal: () => undefined,
};
