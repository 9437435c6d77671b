// §2.2 see-thru gateway decisions, pure: registration order, the gateway's own document, and where a deployment goes
// (or which reserved code of §2.4 refuses it). The driver (simulators/device/driver.ts) runs them.
import { isDescendantOf } from '../../spec/rules/device-id.ts';
import { RESERVED_GATEWAY_CODES } from '../../spec/rules/status-report.ts';
import type { DeviceCapabilities } from '../../spec/types.ts';
import type { Placement } from '../device/deployment-steps.ts';
import type { DeviceDescription } from '../device/types.ts';

/** §2.2 rules 1-3: the gateway first, then every device behind it, each parent before its children (pre-order). */
export function hierarchy(gateway: DeviceDescription): DeviceDescription[] {
  const out: DeviceDescription[] = [];
  const visit = (d: DeviceDescription) => {
    out.push(d);
    if (d.kind === 'see-thru-gateway') for (const child of d.children ?? []) visit(child);
  };
  visit(gateway);
  return out;
}

/** §2.2 table: a gateway that does not host workloads sends the identity fields only. */
export function seeThruDocument(gateway: DeviceDescription): DeviceCapabilities {
  // Read once: a fleet's description makes its document again on every read after the first (compact-description.ts).
  const document = gateway.capabilities;
  if (gateway.hostsWorkloads) return document;
  const { id, vendor, modelNumber, serialNumber } = document.properties;
  const doc: DeviceCapabilities = { properties: { id, vendor, modelNumber, serialNumber } };
  if (document.labels) doc.labels = document.labels;
  return doc;
}

export function hostsWorkloads(d: DeviceDescription): boolean {
  return d.kind === 'see-thru-gateway' ? d.hostsWorkloads === true : true;
}

/** unreachableChild fault: the gateway's first child (and so everything behind it) cannot be reached. */
export function unreachableIndex(devices: readonly DeviceDescription[]): number | undefined {
  return devices[0]?.faults.unreachableChild && devices.length > 1 ? 1 : undefined;
}

export type ReservedCode = keyof typeof RESERVED_GATEWAY_CODES;

export function reservedError(code: ReservedCode, gatewayId: string): { code: string; source: string; message: string } {
  return { code, source: gatewayId, message: RESERVED_GATEWAY_CODES[code] };
}

/**
 * Where the deployment for `target` (P4 `metadata.deviceId`) runs. `live(i)`: device i is registered and has not
 * gone away. `disconnected`: devices whose link went down (still registered), cut off with all behind them. A `<id>/*`
 * target lets the gateway choose: the first live, reachable, hosting device behind `<id>`.
 */
export function placeDeployment(
  devices: readonly DeviceDescription[],
  target: string | undefined,
  live: (i: number) => boolean,
  disconnected: readonly number[] = [],
): Placement {
  const gatewayId = devices[0]!.id;
  const fault = unreachableIndex(devices);
  const cuts = fault === undefined ? disconnected : [fault, ...disconnected];
  const unreachable = (i: number) => cuts.some((cut) => i === cut || isDescendantOf(devices[i]!.id, devices[cut]!.id));
  if (target === undefined || target === gatewayId) return onSelf(devices[0]!);
  if (target.endsWith('/*')) {
    const parent = target.slice(0, -2);
    const chosen = devices.findIndex((d, i) => i > 0 && isDescendantOf(d.id, parent) && live(i) && !unreachable(i) && hostsWorkloads(d));
    if (chosen > 0) return { host: chosen, reportAs: devices[chosen]!.id };
    const reportAs = parent === gatewayId ? {} : { reportAs: parent };
    return { refusal: reservedError('103', gatewayId), ...reportAs };
  }
  const index = devices.findIndex((d, i) => i > 0 && d.id === target);
  const reportAs = isDescendantOf(target, gatewayId) ? { reportAs: target } : {};
  if (index < 0 || !live(index)) return { refusal: reservedError('101', gatewayId), ...reportAs };
  if (unreachable(index)) return { refusal: reservedError('102', gatewayId), ...reportAs };
  if (!hostsWorkloads(devices[index]!)) return { refusal: notHosting(target, gatewayId), reportAs: target };
  return { host: index, reportAs: target };
}

function onSelf(gateway: DeviceDescription): Placement {
  return hostsWorkloads(gateway) ? { host: 0 } : { refusal: notHosting(gateway.id, gateway.id) };
}

/** Not a reserved code: §2.4 source rule 1 still names the gateway, which generated the error. */
function notHosting(deviceId: string, gatewayId: string) {
  return { code: 'NOT_HOSTING', source: gatewayId, message: `§2.2: ${deviceId} does not host workloads` };
}
