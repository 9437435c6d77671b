// Client faults of deployment status reports (§2.4, §2.4.1, §4.4): each bends the report the client sends one way, or
// changes when it reports (simulators/device/decisions/status.ts). A clean client's reports pass through unchanged.
import { isReservedGatewayCode } from '../../spec/rules/status-report.ts';
import type { DeploymentStatusReport, StatusError } from '../../spec/types.ts';
import type { ClientDecisions } from '../device/decisions/index.ts';
import type { MachineState } from '../device/machine.ts';
import type { ClientFaultImplementation, ClientFaultTable } from './types.ts';

type Bend = (report: DeploymentStatusReport, deviceId: string) => DeploymentStatusReport;

/** The reports `base` sends, bent (`deviceId`: the reporting device's). */
function bent(base: ClientDecisions, bend: Bend): Partial<ClientDecisions> {
  return { statusReport: (report, deviceId) => bend(base.statusReport(report, deviceId), deviceId) };
}

/** A client that sends `bend(report)` instead of the report its deployment's state makes. */
const bending =
  (bend: Bend): ClientFaultImplementation =>
  (base) =>
    bent(base, bend);

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

/** The version each deployment held in a machine's state, by deploymentId. */
function heldVersions(machine: MachineState | undefined): Map<string, number> {
  return new Map(
    (machine?.deployments ?? []).flatMap((d) => (d.adoption.held ? [[d.deploymentId, d.adoption.held.version] as const] : [])),
  );
}

/** AMV-NO-RESERVED-VALUE: the first report of each deployment (in this run of the client) claims version 0. */
const zeroFirst: ClientFaultImplementation = (base) => {
  const reported = new Set<string>();
  return bent(base, (r) => {
    if (reported.has(r.deploymentId)) return r;
    reported.add(r.deploymentId);
    return { ...r, adoptedManifestVersion: 0 };
  });
};

/** AMV-ADVANCES-ON-APPLY: the version of the first revision adopted (in this run of the client), forever. */
const firstVersionForever: ClientFaultImplementation = (base) => {
  const first = new Map<string, number>();
  return bent(base, (r) => {
    if (!first.has(r.deploymentId)) first.set(r.deploymentId, r.adoptedManifestVersion);
    return { ...r, adoptedManifestVersion: first.get(r.deploymentId)! };
  });
};

const ONE_EDITION: ClientFaultTable = {
  'AMV-NO-RESERVED-VALUE': zeroFirst,
  // The overall state written "done" once installed.
  'STATUS-STATE-VALUES': bending((r) => (r.status.state === 'installed' ? { ...r, status: { ...r.status, state: 'done' as never } } : r)),
  'STATUS-DEPLOYMENTID-REQUIRED': bending((r) => omitKey(r, 'deploymentId')),
  'STATUS-STATUS-REQUIRED': bending((r) => omitKey(r, 'status')),
  // A report for a device behind the gateway names only its last segment.
  'STATUS-DEVICEID-CHILD': bending((r) => (r.deviceId?.includes('/') ? { ...r, deviceId: r.deviceId.split('/').at(-1)! } : r)),
  // A failed deployment reports the version before the one it failed to apply.
  'AMV-INDEPENDENT-OF-OUTCOME': bending((r) =>
    r.status.state === 'failed' ? { ...r, adoptedManifestVersion: Math.max(1, r.adoptedManifestVersion - 1) } : r,
  ),
  // Component errors name the device as their source.
  'STATUS-ERROR-SOURCE-COMPONENT': bending((r, deviceId) => ({
    ...r,
    components: r.components.map((c) => (c.error ? { ...c, error: { ...c.error, source: deviceId } } : c)),
  })),
  // status.error names the failed component, not the deployment, as its source.
  'STATUS-ERROR-SOURCE-DEPLOYMENT': bending((r) =>
    r.status.error
      ? { ...r, status: { ...r.status, error: { ...r.status.error, source: r.components.find((c) => c.error)?.name ?? 'component' } } }
      : r,
  ),
  // status.error keeps its code and source but loses its message.
  'STATUS-ERROR-FIELDS': bending((r) =>
    r.status.error ? { ...r, status: { ...r.status, error: { ...r.status.error, message: '' } } } : r,
  ),
  'STATUS-COMPONENT-NAME': bending((r) => ({ ...r, components: r.components.map((c) => ({ ...c, name: c.name.toUpperCase() })) })),
  'STATUS-COMPONENT-STATE-VALUES': bending((r) => ({
    ...r,
    components: r.components.map((c) => (c.state === 'installed' ? { ...c, state: 'done' as never } : c)),
  })),
  // The body's deploymentId in upper case (the path keeps the real one).
  'STATUS-PATH-DEPLOYMENTID': bending((r) => (r.deploymentId ? { ...r, deploymentId: r.deploymentId.toUpperCase() } : r)),
  'AMV-ADVANCES-ON-APPLY': firstVersionForever,
  // After losing its local state it reports the versions it held before (kept apart from what it lost).
  'AMV-RESYNC': (base, start) => {
    const stale = heldVersions(start.lost);
    return bent(base, (r) => (stale.has(r.deploymentId) ? { ...r, adoptedManifestVersion: stale.get(r.deploymentId)! } : r));
  },
  // After a reboot, the version it held when it stopped, whatever it applies since.
  'AMV-ADVANCES-ON-APPLY:keep-state': (base, start) => {
    const held = heldVersions(start.restored);
    return bent(base, (r) => (held.has(r.deploymentId) ? { ...r, adoptedManifestVersion: held.get(r.deploymentId)! } : r));
  },
  'AMV-PRESENT': bending((r) => omitKey(r, 'adoptedManifestVersion')),
  'AMV-FIRST-INSTALL': bending((r) => ({ ...r, adoptedManifestVersion: r.adoptedManifestVersion + 1 })),
  // 101 becomes an implementation code.
  'STATUS-RESERVED-101': bending((r) => mapErrors(r, (e) => (e.code === '101' ? { ...e, code: 'UNKNOWN_CHILD' } : e))),
  // A reserved code names the child, not the gateway.
  'STATUS-RESERVED-SOURCE': bending((r) =>
    mapErrors(r, (e) => (isReservedGatewayCode(e.code) && r.deviceId ? { ...e, source: r.deviceId } : e)),
  ),
  // One component more than the deployment has.
  'STATUS-COMPONENTS-ONE-PER': bending((r) => ({
    ...r,
    components: [...r.components, { name: 'sidecar', state: r.components[0]?.state ?? 'installed' }],
  })),
  // Removed as soon as removal begins, its components still removing.
  'STATUS-PRECEDENCE-REMOVED': bending((r) =>
    r.components.some((c) => c.state === 'removing') ? { ...r, status: { ...r.status, state: 'removed' } } : r,
  ),
  // Installed from the first report on, whatever its components say.
  'STATUS-PRECEDENCE': bending((r) => ({
    ...r,
    status: { ...(r.status as { state: string }), state: 'installed' } as DeploymentStatusReport['status'],
  })),
  // Applies deployments without ever reporting their status.
  'STATUS-REPORT-WHILE-APPLYING': () => ({ reportsStatus: false }),
  // A newer manifest that leaves a deployment as it was makes it report a version newer than both manifests'.
  'AMV-EQUALS-HELD:unchanged': () => ({ reportsUnchangedDeploymentsAgain: true }),
  // The revision it still runs is reported with the newer manifest's version.
  'AMV-OLDER-REPORTS-OLDER': () => ({ reportsHeldRevisionOnFetch: true }),
};

/**
 * Status-shape faults run again in edition miaf (`<id>:miaf` in faults/catalog.yaml): P10's status report has the
 * seed's required fields and values, so the same checks must catch the same faults over mutual TLS.
 */
const MIAF_RERUNS = [
  'STATUS-DEPLOYMENTID-REQUIRED',
  'STATUS-STATUS-REQUIRED',
  'AMV-PRESENT',
  'STATUS-COMPONENT-NAME',
  'STATUS-COMPONENT-STATE-VALUES',
] as const;

export const implementations: ClientFaultTable = {
  ...ONE_EDITION,
  ...Object.fromEntries(MIAF_RERUNS.map((id) => [`${id}:miaf`, ONE_EDITION[id]!])),
};
