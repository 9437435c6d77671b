// A fleet as a lazy sequence of top-level device descriptions: gateways first (they take longest to start), then
// plain devices. Each description is built when asked for, so 100,000 devices are never held at once.
import type { DeviceKind } from '../device/types.ts';
import { behindSeeThru, type FleetSpec, type Shard } from '../fleet/spec.ts';
import { shardIndexes, shardSize } from '../fleet/shard.ts';
import type { DeviceDescription } from '../device/types.ts';
import { describeDevice } from './describe.ts';
import { uniform } from './draw.ts';
import { misbehaviourFor } from './misbehaviour.ts';

export interface FleetLayout {
  /** Top-level devices: one client each (plain devices and gateways). */
  clients: number;
  seeThruGateways: number;
  opaqueGateways: number;
  plain: number;
  /** Devices behind see-thru gateways: each reported under its own hierarchical deviceId. */
  seeThruChildren: number;
  /** Devices behind opaque gateways: invisible to the WFM (§2.2). */
  opaqueChildren: number;
  /** deviceIds the WFM should hold after every start: clients plus see-thru children. */
  deviceIds: number;
}

type LayoutInput = Pick<FleetSpec, 'devices' | 'seeThruGateways' | 'opaqueGateways' | 'children' | 'depth'>;

/** Counts for a fleet, or for one shard of it. */
export function fleetLayout(spec: LayoutInput, shard: Shard = { index: 0, count: 1 }): FleetLayout {
  const total = spec.seeThruGateways + spec.opaqueGateways + spec.devices;
  const inShard = (from: number, n: number) => shardSize(from + n, shard) - shardSize(from, shard);
  const seeThru = inShard(0, spec.seeThruGateways);
  const opaque = inShard(spec.seeThruGateways, spec.opaqueGateways);
  const clients = shardSize(total, shard);
  const seeThruChildren = seeThru * behindSeeThru(spec.children, spec.depth);
  return {
    clients,
    seeThruGateways: seeThru,
    opaqueGateways: opaque,
    plain: clients - seeThru - opaque,
    seeThruChildren,
    opaqueChildren: opaque * spec.children,
    deviceIds: clients + seeThruChildren,
  };
}

export function kindAt(spec: LayoutInput, index: number): DeviceKind {
  if (index < spec.seeThruGateways) return 'see-thru-gateway';
  if (index < spec.seeThruGateways + spec.opaqueGateways) return 'opaque-gateway';
  return 'plain';
}

export function* describeFleet(spec: FleetSpec, shard: Shard = spec.shard): Generator<DeviceDescription> {
  const total = spec.seeThruGateways + spec.opaqueGateways + spec.devices;
  for (const index of shardIndexes(total, shard)) {
    const kind = kindAt(spec, index);
    yield describeDevice(spec.seed, index, kind, {
      idPrefix: spec.idPrefix,
      children: spec.children,
      depth: spec.depth,
      hostsWorkloads: kind === 'see-thru-gateway' && uniform(spec.seed, index, 0x405) < spec.hostsWorkloads,
      faults: misbehaviourFor(spec.seed, index, spec.faults, kind),
      quantityFormat: spec.quantityFormat,
    });
  }
}
