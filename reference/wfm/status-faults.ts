// Seams of the faults in reference/faults/status.ts: findings a faulty WFM overlooks, and reports it refuses although
// the spec says it accepts them. Each entry is one wrong decision, taken only when its fault id is switched on.
import type { Finding } from '../../spec/rules/finding.ts';
import { isReservedGatewayCode } from '../../spec/rules/status-report.ts';
import type { DeploymentStatusReport, StatusError } from '../../spec/types.ts';
import type { ActiveFaults } from '../faults/types.ts';
import { WfmError } from './http.ts';

/** The finding rule each fault stops checking (spec/rules/status-report.ts and status.ts name them). */
const OVERLOOKED: Record<string, string> = {
  'STATUS-POST-422': 'component-missing',
  'STATUS-POST-422:extra': 'component-extra',
  'STATUS-POST-422:duplicate': 'component-duplicate',
  'STATUS-POST-422:unknown-deployment': 'deployment-known',
};

export function overlooked(faults: ActiveFaults, findings: Finding[]): Finding[] {
  return findings.filter((f) => !Object.entries(OVERLOOKED).some(([id, rule]) => f.rule === rule && faults.has(id)));
}

export interface ReportView {
  report: DeploymentStatusReport;
  componentNames: readonly string[];
  /** The manifestVersion the WFM serves now. */
  currentVersion: number;
}

interface FaultyRefusal {
  id: string;
  applies(v: ReportView): boolean;
  why: string;
  status: number;
}

const errorsOf = (r: DeploymentStatusReport): StatusError[] => [r.status.error, ...r.components.map((c) => c.error)].filter((e): e is StatusError => e != null);

const REFUSALS: FaultyRefusal[] = [
  // A failed report must explain itself, though every error is optional.
  { id: 'STATUS-ERROR-ABSENT-ACCEPTED', applies: (v) => v.report.status.state === 'failed' && errorsOf(v.report).length === 0, why: 'a failed report needs an error', status: 422 },
  { id: 'STATUS-ERROR-EMPTY-ACCEPTED', applies: (v) => errorsOf(v.report).some((e) => e.code === ''), why: 'error.code is empty', status: 422 },
  { id: 'STATUS-ERROR-CODES-IMPL', applies: (v) => errorsOf(v.report).some((e) => e.code !== '' && !isReservedGatewayCode(e.code)), why: 'unknown error code', status: 422 },
  // Rule 3 (component name as source) applied to gateway errors too.
  {
    id: 'STATUS-RESERVED-ACCEPTED',
    applies: (v) => errorsOf(v.report).some((e) => isReservedGatewayCode(e.code) && !v.componentNames.includes(e.source)),
    why: 'error.source must be a component name',
    status: 422,
  },
  { id: 'STATUS-EXTRA-FIELDS-ACCEPTED', applies: (v) => 'apiVersion' in v.report || 'kind' in v.report, why: 'unknown field apiVersion/kind', status: 400 },
  { id: 'AMV-OLDER-ACCEPTED', applies: (v) => v.report.adoptedManifestVersion < v.currentVersion, why: 'adoptedManifestVersion is not the latest', status: 422 },
  // The overall state taken from the first component instead of the most severe one.
  { id: 'STATUS-POST-200:precedence', applies: (v) => v.report.status.state !== v.report.components[0]?.state, why: 'status.state is not the state of the components', status: 422 },
];

/** The refusal a switched-on fault makes of a report the clean service accepts; undefined without one. */
export function faultyRefusal(faults: ActiveFaults, view: ReportView): WfmError | undefined {
  const hit = REFUSALS.find((r) => faults.has(r.id) && r.applies(view));
  return hit && new WfmError(hit.status, `${hit.why} (fault ${hit.id})`);
}
