// Faults of §2.4, §4.4, P7 (deployment status reports): rewrites of the answers, or status decisions of the reference
// WFM (reference/wfm/decisions/status.ts): findings it overlooks, and reports it refuses although the spec accepts them.
import { isReservedGatewayCode } from '../../spec/rules/status-report.ts';
import type { DeploymentStatusReport, StatusError } from '../../spec/types.ts';
import type { ReportView } from '../wfm/decisions/index.ts';
import { WfmError } from '../wfm/http.ts';
import { on } from './rewrite.ts';
import type { ServiceFaultImplementation, ServiceFaultTable } from './types.ts';

const STATUS = /^\/api\/v1\/deployments\/[^/]+\/status$/;

/** A WFM that stops checking one finding rule (spec/rules/status-report.ts and reference/wfm/status.ts name them). */
function overlooking(rule: string): ServiceFaultImplementation {
  return { wfm: (base) => ({ overlooksStatusFinding: (f) => f.rule === rule || base.overlooksStatusFinding(f) }) };
}

/** A WFM that refuses (with `status`) a report the spec accepts, whenever `applies` holds. */
function refusingReport(id: string, status: number, why: string, applies: (v: ReportView) => boolean): ServiceFaultImplementation {
  return { wfm: (base) => ({ statusRefusal: (v) => (applies(v) ? new WfmError(status, `${why} (fault ${id})`) : base.statusRefusal(v)) }) };
}

const errorsOf = (r: DeploymentStatusReport): StatusError[] =>
  [r.status.error, ...r.components.map((c) => c.error)].filter((e): e is StatusError => e != null);

export const implementations: ServiceFaultTable = {
  'STATUS-POST-201': { rewrite: () => on('POST', STATUS, (a) => (a.status === 201 ? { ...a, status: 200 } : undefined)) },
  'STATUS-POST-200': { rewrite: () => on('POST', STATUS, (a) => (a.status === 200 ? { ...a, status: 201 } : undefined)) },
  // The overall state taken from the first component instead of the most severe one. The first report of the checks
  // is every component pending, whose state is its first component's: only updates meet it.
  'STATUS-POST-200:precedence': refusingReport(
    'STATUS-POST-200:precedence',
    422,
    'status.state is not the state of the components',
    (v) => v.report.status.state !== v.report.components[0]?.state,
  ),
  'STATUS-POST-400': {
    rewrite: () =>
      on('POST', STATUS, (a) => (a.status === 400 && /not JSON/.test(a.body.toString('utf8')) ? { ...a, status: 422 } : undefined)),
  },
  // The schema is never checked, so a report without components crashes.
  'ERR-SCHEMA-INVALID-400-OR-422:status': { wfm: () => ({ checksStatusSchema: false }) },
  'STATUS-POST-422': overlooking('component-missing'),
  'STATUS-POST-422:extra': overlooking('component-extra'),
  'STATUS-POST-422:duplicate': overlooking('component-duplicate'),
  'STATUS-POST-422:unknown-deployment': overlooking('deployment-known'),
  'STATUS-POST-422:overall-state': overlooking('overall-state-consistent'),
  // Retirement is not enforced on status reports.
  'STATUS-POST-403': { wfm: () => ({ acceptsStatusOfRetiredClient: true }) },
  // status is read as the list the field table types it as.
  'STATUS-OBJECT': { wfm: () => ({ readsStatusAsList: true }) },
  // A failed report must explain itself, though every error is optional.
  'STATUS-ERROR-ABSENT-ACCEPTED': refusingReport(
    'STATUS-ERROR-ABSENT-ACCEPTED',
    422,
    'a failed report needs an error',
    (v) => v.report.status.state === 'failed' && errorsOf(v.report).length === 0,
  ),
  'STATUS-ERROR-EMPTY-ACCEPTED': refusingReport('STATUS-ERROR-EMPTY-ACCEPTED', 422, 'error.code is empty', (v) =>
    errorsOf(v.report).some((e) => e.code === ''),
  ),
  'STATUS-ERROR-CODES-IMPL': refusingReport('STATUS-ERROR-CODES-IMPL', 422, 'unknown error code', (v) =>
    errorsOf(v.report).some((e) => e.code !== '' && !isReservedGatewayCode(e.code)),
  ),
  // Rule 3 (component name as source) applied to gateway errors too.
  'STATUS-RESERVED-ACCEPTED': refusingReport('STATUS-RESERVED-ACCEPTED', 422, 'error.source must be a component name', (v) =>
    errorsOf(v.report).some((e) => isReservedGatewayCode(e.code) && !v.componentNames.includes(e.source)),
  ),
  'STATUS-EXTRA-FIELDS-ACCEPTED': refusingReport(
    'STATUS-EXTRA-FIELDS-ACCEPTED',
    400,
    'unknown field apiVersion/kind',
    (v) => 'apiVersion' in v.report || 'kind' in v.report,
  ),
  'AMV-OLDER-ACCEPTED': refusingReport(
    'AMV-OLDER-ACCEPTED',
    422,
    'adoptedManifestVersion is not the latest',
    (v) => v.report.adoptedManifestVersion < v.currentVersion,
  ),
};
