// §2.4, §4.4, P7: deployment status reports. Every problem with what the report says is a 422 ("semantic error in
// the body"); §4.4 lists no 404, so an unknown deployment is one too.
import { ancestorsOf } from '../../spec/rules/device-id.ts';
import { judgeOverallState } from '../../spec/rules/status-precedence.ts';
import { componentsFindings, deviceIdFindings } from '../../spec/rules/status-report.ts';
import { finding, type Finding } from '../../spec/rules/finding.ts';
import { validate } from '../../spec/schemas/index.ts';
import type { DeploymentStatusReport } from '../../spec/types.ts';
import { authenticate } from './auth.ts';
import type { WfmContext, WfmRequest } from './context.ts';
import { WfmError, json, parseJsonObject, type Reply } from './http.ts';
import { componentNamesAt, type Client, type Deployment } from './store.ts';

export async function postStatus(ctx: WfmContext, req: WfmRequest): Promise<Reply> {
  const d = ctx.decisions;
  const client = await authenticate(ctx, req, { allowRetired: d.acceptsStatusOfRetiredClient });
  const body = parseJsonObject(req.body);
  if (d.readsStatusAsList && !Array.isArray(body['status'])) throw new WfmError(400, 'status must be a list (fault STATUS-OBJECT)');
  if (d.readsMissingStateAsInstalled && Array.isArray(body['components'])) {
    for (const c of body['components'] as Record<string, unknown>[])
      if (c && typeof c === 'object' && c['state'] === undefined) c['state'] = 'installed';
  }
  const checked = validate('DeploymentStatusReport', body, { vendor: ctx.profile.vendor });
  // Unchecked, a report without a field crashes below (a 500).
  if (!checked.ok && d.checksStatusSchema) throw new WfmError(400, 'malformed deployment status report', checked.errors);
  const report = body as unknown as DeploymentStatusReport;
  const pathId = req.params['deploymentId']!;
  const findings = reportFindings(client, report, pathId).filter((f) => !d.overlooksStatusFinding(f));
  if (findings.length) throw new WfmError(422, `semantic error in the status report: ${findings[0]!.message}`, findings);
  const deployment = client.deployments.get(pathId);
  const refusal = d.statusRefusal({ report, componentNames: deployment?.componentNames ?? [], currentVersion: client.manifest.version });
  if (refusal) throw refusal;

  const created = !client.statuses.has(pathId);
  client.statuses.set(pathId, report);
  // A removed deployment is accepted until the client says it is gone; then it is forgotten.
  if (deployment?.removed && report.status.state === 'removed') client.deployments.delete(pathId);
  return json(created ? 201 : 200, {});
}

function reportFindings(client: Client, report: DeploymentStatusReport, pathId: string): Finding[] {
  if (report.deploymentId !== pathId) {
    return [
      finding(
        'deployment-id-matches-path',
        `§4.4: deploymentId "${report.deploymentId}" differs from the path "${pathId}"`,
        '/deploymentId',
      ),
    ];
  }
  const deployment = client.deployments.get(pathId);
  if (!deployment)
    return [
      finding('deployment-known', `§2.4: deployment ${pathId} was never assigned to this client (or is already removed)`, '/deploymentId'),
    ];
  return [
    ...overallStateFindings(report),
    ...componentsFindings(report, componentNamesAt(deployment, report.adoptedManifestVersion)),
    ...versionFindings(client, deployment, report.adoptedManifestVersion),
    ...deviceFindings(client, deployment, report.deviceId, report),
  ];
}

/** §2.4.1: a version the client could have adopted this deployment from: not before it was added, not in the future. */
function versionFindings(client: Client, deployment: Deployment, version: number): Finding[] {
  const current = client.manifest.version;
  if (version >= deployment.addedInVersion && version <= current) return [];
  return [
    finding(
      'adopted-version-served',
      `§2.4.1: adoptedManifestVersion ${version} is not a manifest that carried or removed deployment ${deployment.deploymentId} (versions ${deployment.addedInVersion}..${current})`,
      '/adoptedManifestVersion',
    ),
  ];
}

/** §2.4 deviceId: the deployment's device, or for `<gateway>/*` a device behind that gateway that the client registered. */
function deviceFindings(client: Client, deployment: Deployment, deviceId: string | undefined, report: DeploymentStatusReport): Finding[] {
  const target = deployment.deviceId;
  const chooses = target.endsWith('/*');
  // The reporter is the root gateway; for `<gateway>/*` deviceId may be left out when no child was chosen (code 103).
  const reportingDeviceId = chooses ? undefined : (ancestorsOf(target)[0] ?? target);
  const out = deviceIdFindings(report, { reportingDeviceId, targetDeviceId: target });
  if (out.length || deviceId === undefined || !chooses) return out;
  if (!client.devices.has(deviceId)) {
    return [finding('device-id-known', `§2.4: deviceId "${deviceId}" is not a device this client registered`, '/deviceId')];
  }
  return [];
}

/** §2.4: status.state reflects the most severe component state; refused only where no reading of the list (P7) gives it. */
function overallStateFindings(report: DeploymentStatusReport): Finding[] {
  const j = judgeOverallState(
    report.status.state,
    report.components.map((c) => c.state),
    { repeatedRemoving: 'either' },
  );
  return j.verdict === 'inconsistent' ? [finding('overall-state-consistent', j.reason!, '/status/state')] : [];
}
