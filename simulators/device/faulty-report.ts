// The kit's faulty client (simulators/faults/): each fault bends the status report one way, so the device persona can
// prove each of its checks fails. A clean client's reports pass through unchanged.
import { isReservedGatewayCode } from '../../spec/rules/status-report.ts';
import type { DeploymentStatusReport, StatusError } from '../../spec/types.ts';
import type { ActionContext } from './actions.ts';

/** Deployments a faulty client (AMV-NO-RESERVED-VALUE) has reported once: the fault bends only the first report. */
const firstReported = new Set<string>();
/** The first version a faulty client (AMV-ADVANCES-ON-APPLY) reported for each deployment. */
const firstVersions = new Map<string, number>();

/** Client faults STATUS-COMPONENTS-ONE-PER (an extra component) and STATUS-PRECEDENCE (overall state installed regardless). */
export function faultyReport(ctx: ActionContext, report: DeploymentStatusReport | undefined): DeploymentStatusReport | undefined {
  const faults = ctx.env.clientFaults;
  if (!report || !faults) return report;
  let out = report;
  // AMV-NO-RESERVED-VALUE: the first report of a deployment claims version 0.
  if (faults.has('AMV-NO-RESERVED-VALUE') && !firstReported.has(out.deploymentId)) {
    firstReported.add(out.deploymentId);
    out = { ...out, adoptedManifestVersion: 0 };
  }
  // STATUS-STATE-VALUES: the overall state is written "done" once installed.
  if (faults.has('STATUS-STATE-VALUES') && out.status.state === 'installed') out = { ...out, status: { ...out.status, state: 'done' as never } };
  // STATUS-DEPLOYMENTID-REQUIRED / STATUS-STATUS-REQUIRED: the report leaves deploymentId / status out.
  if (faults.has('STATUS-DEPLOYMENTID-REQUIRED')) out = omitKey(out, 'deploymentId');
  if (faults.has('STATUS-STATUS-REQUIRED')) out = omitKey(out, 'status');
  // STATUS-DEVICEID-CHILD: a report for a device behind the gateway names only its last segment.
  if (faults.has('STATUS-DEVICEID-CHILD') && out.deviceId?.includes('/')) out = { ...out, deviceId: out.deviceId.split('/').at(-1)! };
  // AMV-INDEPENDENT-OF-OUTCOME: a failed deployment reports the version before the one it failed to apply.
  if (faults.has('AMV-INDEPENDENT-OF-OUTCOME') && out.status.state === 'failed') out = { ...out, adoptedManifestVersion: Math.max(1, out.adoptedManifestVersion - 1) };
  // STATUS-ERROR-SOURCE-COMPONENT: component errors name the device as their source.
  if (faults.has('STATUS-ERROR-SOURCE-COMPONENT')) out = { ...out, components: out.components.map((c) => (c.error ? { ...c, error: { ...c.error, source: ctx.desc.id } } : c)) };
  // STATUS-ERROR-SOURCE-DEPLOYMENT: status.error names the failed component, not the deployment, as its source.
  if (faults.has('STATUS-ERROR-SOURCE-DEPLOYMENT') && out.status.error) out = { ...out, status: { ...out.status, error: { ...out.status.error, source: out.components.find((c) => c.error)?.name ?? 'component' } } };
  // STATUS-ERROR-FIELDS: status.error keeps its code and source but loses its message.
  if (faults.has('STATUS-ERROR-FIELDS') && out.status.error) out = { ...out, status: { ...out.status, error: { ...out.status.error, message: '' } } };
  // STATUS-COMPONENT-NAME / STATUS-COMPONENT-STATE-VALUES: components in upper case / an installed component "done".
  if (faults.has('STATUS-COMPONENT-NAME')) out = { ...out, components: out.components.map((c) => ({ ...c, name: c.name.toUpperCase() })) };
  if (faults.has('STATUS-COMPONENT-STATE-VALUES')) out = { ...out, components: out.components.map((c) => (c.state === 'installed' ? { ...c, state: 'done' as never } : c)) };
  // STATUS-PATH-DEPLOYMENTID: the body's deploymentId in upper case (the path keeps the real one).
  if (faults.has('STATUS-PATH-DEPLOYMENTID') && out.deploymentId) out = { ...out, deploymentId: out.deploymentId.toUpperCase() };
  // AMV-ADVANCES-ON-APPLY: the version of the first revision adopted, forever.
  if (faults.has('AMV-ADVANCES-ON-APPLY')) {
    const first = firstVersions.get(out.deploymentId) ?? out.adoptedManifestVersion;
    firstVersions.set(out.deploymentId, first);
    out = { ...out, adoptedManifestVersion: first };
  }
  // AMV-RESYNC: after losing its local state it reports the versions it held before (kept apart from what it lost).
  const stale = faults.has('AMV-RESYNC') ? ctx.env.staleVersions?.get(out.deploymentId) : undefined;
  if (stale !== undefined) out = { ...out, adoptedManifestVersion: stale };
  // AMV-ADVANCES-ON-APPLY:keep-state: after a reboot, the version it held when it stopped, whatever it applies since.
  const rebooted = faults.has('AMV-ADVANCES-ON-APPLY:keep-state') ? ctx.env.restored?.deployments.find((d) => d.deploymentId === out.deploymentId)?.adoption.held?.version : undefined;
  if (rebooted !== undefined) out = { ...out, adoptedManifestVersion: rebooted };
  // AMV-PRESENT / AMV-FIRST-INSTALL: no adoptedManifestVersion / the version after the one adopted.
  if (faults.has('AMV-PRESENT')) out = omitKey(out, 'adoptedManifestVersion');
  if (faults.has('AMV-FIRST-INSTALL')) out = { ...out, adoptedManifestVersion: out.adoptedManifestVersion + 1 };
  // STATUS-RESERVED-101 / STATUS-RESERVED-SOURCE: 101 becomes an implementation code / a reserved code names the child.
  if (faults.has('STATUS-RESERVED-101')) out = mapErrors(out, (e) => (e.code === '101' ? { ...e, code: 'UNKNOWN_CHILD' } : e));
  if (faults.has('STATUS-RESERVED-SOURCE')) out = mapErrors(out, (e) => (isReservedGatewayCode(e.code) && out.deviceId ? { ...e, source: out.deviceId } : e));
  if (faults.has('STATUS-COMPONENTS-ONE-PER')) out = { ...out, components: [...out.components, { name: 'sidecar', state: out.components[0]?.state ?? 'installed' }] };
  // STATUS-PRECEDENCE-REMOVED: removed as soon as removal begins, its components still removing.
  if (faults.has('STATUS-PRECEDENCE-REMOVED') && out.components.some((c) => c.state === 'removing')) out = { ...out, status: { ...out.status, state: 'removed' } };
  // Claims the deployment installed from the first report on, whatever its components say.
  if (faults.has('STATUS-PRECEDENCE')) out = { ...out, status: { ...(out.status as { state: string }), state: 'installed' } as DeploymentStatusReport['status'] };
  return out;
}

function mapErrors(report: DeploymentStatusReport, f: (e: StatusError) => StatusError): DeploymentStatusReport {
  return {
    ...report,
    status: report.status.error ? { ...report.status, error: f(report.status.error) } : report.status,
    components: report.components.map((c) => (c.error ? { ...c, error: f(c.error) } : c)),
  };
}

function omitKey(report: DeploymentStatusReport, key: 'deploymentId' | 'status' | 'adoptedManifestVersion'): DeploymentStatusReport {
  const { [key]: _dropped, ...rest } = report;
  return rest as DeploymentStatusReport;
}
