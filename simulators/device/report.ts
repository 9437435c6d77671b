// §2.4 and P7: the deployment status report a device sends for one deployment, built from its compact slot.
import { reportedVersion } from '../../spec/rules/manifest-version.ts';
import { overallState } from '../../spec/rules/status-precedence.ts';
import type { DeploymentStatusReport, StatusError } from '../../spec/types.ts';
import type { DeploymentSlot } from './deployment-steps.ts';

/** P7: the standard's status schema carries apiVersion and kind; the kit sends them. */
export function statusApiVersion(vendor: string): string {
  return `deployment.${vendor}.org/v1alpha1`;
}

/** Undefined before adoption: §2.4.1 rule 2 leaves no value to send for a deployment the client never adopted. */
export function statusReport(slot: DeploymentSlot, vendor: string): DeploymentStatusReport | undefined {
  const adoptedManifestVersion = reportedVersion(slot.adoption);
  if (adoptedManifestVersion === undefined) return undefined;
  const states = slot.components.map((c) => c.state);
  const error = overallError(slot);
  const report: DeploymentStatusReport = {
    apiVersion: statusApiVersion(vendor),
    kind: 'DeploymentStatusManifest',
    deploymentId: slot.deploymentId,
    adoptedManifestVersion,
    status: error ? { state: overallState(states), error } : { state: overallState(states) },
    components: slot.components.map((c) =>
      c.error ? { name: c.ref.name, state: c.state, error: c.error } : { name: c.ref.name, state: c.state },
    ),
  };
  if (slot.reportAs !== undefined) report.deviceId = slot.reportAs;
  return report;
}

/**
 * §2.4 source rules: a gateway's own error keeps the gateway as source (rule 1); a component's failure is restated
 * for the deployment with its name as source (rule 2).
 */
function overallError(slot: DeploymentSlot): StatusError | undefined {
  const failed = slot.components.find((c) => c.state === 'failed' && c.error);
  if (!failed?.error) return undefined;
  const { code, source, message } = failed.error;
  return source === failed.ref.name ? { code, source: slot.name, message } : { code, source, message };
}
