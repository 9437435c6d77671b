// What became of the deployments a fleet assigned: the last state each one reported, failures split into those
// the device's own fault knob explains (expected) and the rest (unexpected), and the WFM's answers to the reports.
import type { DeploymentStatusReport } from '../../spec/types.ts';
import type { DeviceMisbehaviour } from '../device/types.ts';

/** The error codes a fault knob makes a device report (simulators/device/compose-apply.ts, gateways/see-thru.ts). */
const CODES_OF_FAULT: Partial<Record<keyof DeviceMisbehaviour, readonly string[]>> = {
  crashingContainer: ['CONTAINER_EXITED'],
  unhealthyContainer: ['HEALTHCHECK_TIMEOUT'],
  // 102 for the cut-off child itself; 103 when no reachable hosting child is left for a `<gateway>/*` deployment.
  unreachableChild: ['102', '103'],
};

const KNOBS = Object.keys(CODES_OF_FAULT) as (keyof DeviceMisbehaviour)[];

/** The fault knob that explains a failure with `code`, when the device has it switched on. */
export function faultExplaining(code: string, faults: DeviceMisbehaviour): keyof DeviceMisbehaviour | undefined {
  return KNOBS.find((knob) => faults[knob] && CODES_OF_FAULT[knob]!.includes(code));
}

/** The knobs of `faults` that can explain a failure, as bits: a fleet keeps one small number per deployment. */
function knobBits(faults: DeviceMisbehaviour): number {
  return KNOBS.reduce((bits, knob, i) => (faults[knob] ? bits | (1 << i) : bits), 0);
}

function explained(code: string, bits: number): boolean {
  return KNOBS.some((knob, i) => (bits & (1 << i)) !== 0 && CODES_OF_FAULT[knob]!.includes(code));
}

/** The code a failed report carries: the overall error's, else the first failed component's. */
export function failureCode(report: DeploymentStatusReport): string {
  const component = report.components.find((c) => c.state === 'failed' && c.error?.code);
  return report.status.error?.code || component?.error?.code || 'NO_ERROR_CODE';
}

export interface DeploymentTotals {
  /** Deployments wanted per workload-hosting deviceId. */
  perDevice: number;
  assigned: number;
  /** assignDeployment hook calls that failed (listed with the unexpected answers). */
  assignErrors: number;
  installed: number;
  /** Failures no fault knob explains, by error code: unexpected, they fail the run. */
  failed: Record<string, number>;
  /** Failures the device's own fault knob explains, by error code: the expected outcome of that fault. */
  failedByFault: Record<string, number>;
  /** Assigned but neither installed nor failed at the end (never reported, pending, installing). */
  pending: number;
  /** Reported pending or installing again after settling: a device that lost its state and resynchronised. */
  resynchronized: number;
  /** The WFM's answers to status reports, by HTTP status. */
  statusResponses: Record<string, number>;
}

/** A failure no fault explains, handed to the statistics as evidence. */
export type UnexplainedFailure = (deviceId: string, code: string, message: string) => void;

const SETTLED = new Set(['installed', 'failed']);

export class DeploymentOutcomes {
  perDevice = 0;
  assignErrors = 0;
  resynchronized = 0;
  /** deploymentId -> the knobs that may explain its failure, and its last reported state and code. */
  private readonly deployments = new Map<string, { knobs: number; state?: string; code?: string }>();
  private readonly responses = new Map<string, number>();

  constructor(private readonly unexplained: UnexplainedFailure = () => undefined) {}

  assigned(deploymentId: string, faults: DeviceMisbehaviour): void {
    this.deployments.set(deploymentId, { knobs: knobBits(faults) });
  }

  /** A status report a device sent for one of the fleet's deployments, and the HTTP status it was answered with. */
  reported(deviceId: string, report: DeploymentStatusReport, status: number): void {
    this.responses.set(String(status), (this.responses.get(String(status)) ?? 0) + 1);
    const entry = this.deployments.get(report.deploymentId);
    if (!entry) return;
    const state = report.status.state;
    if (entry.state !== undefined && SETTLED.has(entry.state) && (state === 'pending' || state === 'installing')) this.resynchronized++;
    const code = state === 'failed' ? failureCode(report) : undefined;
    const firstFailure = code !== undefined && entry.state !== 'failed';
    entry.state = state;
    entry.code = code;
    if (firstFailure && !explained(code, entry.knobs)) {
      const message = report.status.error?.message || report.components.find((c) => c.error)?.error?.message || 'failed without a message';
      this.unexplained(report.deviceId ?? deviceId, code, message);
    }
  }

  totals(): DeploymentTotals {
    const failed: Record<string, number> = {};
    const failedByFault: Record<string, number> = {};
    let installed = 0;
    let pending = 0;
    for (const { knobs, state, code } of this.deployments.values()) {
      if (state === 'installed') installed++;
      else if (state === 'failed') {
        const into = explained(code!, knobs) ? failedByFault : failed;
        into[code!] = (into[code!] ?? 0) + 1;
      } else pending++;
    }
    return {
      perDevice: this.perDevice,
      assigned: this.deployments.size,
      assignErrors: this.assignErrors,
      installed,
      failed,
      failedByFault,
      pending,
      resynchronized: this.resynchronized,
      statusResponses: Object.fromEntries(this.responses),
    };
  }
}
