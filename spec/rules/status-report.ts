// §2.4 deployment status report: components per manifest, the Error `source` rules, reserved codes, deviceId.

import type { DeploymentStatusReport, StatusError } from '../types.ts';
import { isDescendantOf, parseDeviceId } from './device-id.ts';
import { finding, type Finding } from './finding.ts';

/** §2.4: gateway-generated codes whose source MUST be the gateway id (full hierarchy). */
export const RESERVED_GATEWAY_CODES = Object.freeze({
  '101': 'Unknown child device ID',
  '102': 'Child device unreachable',
  '103': 'Autonomous placement not supported',
} as const);

export function isReservedGatewayCode(code: string): code is keyof typeof RESERVED_GATEWAY_CODES {
  return Object.hasOwn(RESERVED_GATEWAY_CODES, code);
}

/** P7: no error is written by leaving `error` out (or null) or by three empty strings. */
export function isNoError(e?: StatusError | null): boolean {
  return e == null || (e.code === '' && e.source === '' && e.message === '');
}

/** §2.4, §8: exactly one entry per component of the deployment manifest. */
export function componentsFindings(report: DeploymentStatusReport, componentNames: readonly string[]): Finding[] {
  const wanted = new Set(componentNames);
  const seen = new Set<string>();
  const out: Finding[] = [];
  report.components.forEach((c, i) => {
    if (!wanted.has(c.name))
      out.push(finding('component-extra', `§2.4: component "${c.name}" is not in the deployment manifest`, `/components/${i}`));
    else if (seen.has(c.name))
      out.push(finding('component-duplicate', `§2.4: component "${c.name}" has more than one entry`, `/components/${i}`));
    seen.add(c.name);
  });
  for (const name of wanted) {
    if (!seen.has(name))
      out.push(finding('component-missing', `§2.4: component "${name}" of the deployment manifest has no entry`, '/components'));
  }
  return out;
}

/** P7: an error must be wholly empty or wholly filled, since code, source and message are all required. */
export function errorShapeFindings(report: DeploymentStatusReport): Finding[] {
  return errorsOf(report).flatMap(({ error, path }) => {
    const empty = (['code', 'source', 'message'] as const).filter((k) => error[k] === '');
    if (empty.length === 0 || empty.length === 3) return [];
    return [
      finding(
        'error-partially-empty',
        `§2.4: error has empty ${empty.join(', ')} but not all three; empty strings mean "no error" only together (P7)`,
        path,
      ),
    ];
  });
}

export interface SourceContext {
  /** `metadata.name` of the ApplicationDeployment: the source of a non-gateway error in status.error. */
  deploymentName: string;
  /** Full-hierarchy id of the see-thru gateway that reports, when one does: the source of its own errors. */
  gatewayId?: string;
}

/**
 * §2.4 `source` rules 1-3. Rule 4 says `source` tells reserved codes from implementation codes, so a code 101 with
 * the deployment or component name as source is read as an implementation code, not as a misplaced reserved one.
 */
export function errorSourceFindings(report: DeploymentStatusReport, ctx: SourceContext): Finding[] {
  return errorsOf(report).flatMap(({ error, path, ownSource }) => {
    if (isNoError(error)) return [];
    const local = ownSource ?? ctx.deploymentName;
    const accepted = ctx.gatewayId === undefined ? [local] : [ctx.gatewayId, local];
    if (accepted.includes(error.source)) return [];
    const where = ownSource === undefined ? 'status.error' : `the error of component "${ownSource}"`;
    if (isReservedGatewayCode(error.code)) {
      const gateway = ctx.gatewayId === undefined ? 'the reporting gateway id' : `"${ctx.gatewayId}"`;
      return [
        finding(
          'reserved-code-source',
          `§2.4: reserved code ${error.code} in ${where} needs source ${gateway} (or "${local}" as an implementation code), got "${error.source}"`,
          `${path}/source`,
        ),
      ];
    }
    return [
      finding(
        'error-source',
        `§2.4: ${where} needs source ${accepted.map((s) => `"${s}"`).join(' or ')}, got "${error.source}"`,
        `${path}/source`,
      ),
    ];
  });
}

function errorsOf(report: DeploymentStatusReport): { error: StatusError; path: string; ownSource?: string }[] {
  const out: { error: StatusError; path: string; ownSource?: string }[] = [];
  if (report.status.error != null) out.push({ error: report.status.error, path: '/status/error' });
  report.components.forEach((c, i) => {
    if (c.error != null) out.push({ error: c.error, path: `/components/${i}/error`, ownSource: c.name });
  });
  return out;
}

export interface DeviceIdContext {
  /** The device the reporting client registered itself as (its root or gateway id). */
  reportingDeviceId?: string;
  /** `metadata.deviceId` of the deployment; a trailing `/*` lets the gateway choose the child (P4). */
  targetDeviceId?: string;
}

/** §2.4 deviceId: required, with full hierarchy, when a gateway reports on behalf of a child device. */
export function deviceIdFindings(report: DeploymentStatusReport, ctx: DeviceIdContext): Finding[] {
  const { deviceId } = report;
  const { reportingDeviceId: reporter, targetDeviceId: target } = ctx;
  if (deviceId === undefined) {
    if (target !== undefined && reporter !== undefined && target !== reporter) {
      return [
        finding(
          'device-id-required-for-child',
          `§2.4: the deployment targets "${target}", not the reporter "${reporter}", so deviceId is required`,
          '/deviceId',
        ),
      ];
    }
    return [];
  }
  const parsed = parseDeviceId(deviceId);
  if (!parsed.ok) return [finding('device-id-syntax', `§2.4 deviceId: ${parsed.reason}`, '/deviceId')];
  if (target !== undefined && !targetMatches(deviceId, target)) {
    const partial = target.endsWith(`/${deviceId}`) ? ' (not the full hierarchy)' : '';
    return [
      finding('device-id-mismatch', `§2.4: deviceId "${deviceId}" is not the deployment's device "${target}"${partial}`, '/deviceId'),
    ];
  }
  if (reporter !== undefined && deviceId !== reporter && !isDescendantOf(deviceId, reporter)) {
    return [
      finding(
        'device-id-outside-reporter',
        `§2.4: deviceId "${deviceId}" is neither the reporter "${reporter}" nor a device behind it`,
        '/deviceId',
      ),
    ];
  }
  return [];
}

/** For `<gateway>/*` the gateway itself is accepted too: it reports when it could not choose a child (code 103). */
function targetMatches(deviceId: string, target: string): boolean {
  if (!target.endsWith('/*')) return deviceId === target;
  const gateway = target.slice(0, -2);
  return deviceId === gateway || isDescendantOf(deviceId, gateway);
}
