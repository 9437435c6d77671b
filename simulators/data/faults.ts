// Fault knobs per device from a mix of probabilities, drawn deterministically from (seed, index).
import type { DeviceFaults, DeviceKind } from '../device/types.ts';
import { DEFAULT_CLOCK_SKEW_SECONDS } from '../../protocol/signing.ts';
import { uniform } from './draw.ts';

export type FaultName = keyof DeviceFaults;
/** Probability per fault, e.g. `{ crashingContainer: 0.05, flappingCapabilities: 0.1 }`. */
export type FaultMix = Partial<Record<FaultName, number>>;

/** Fixed order: a fault's salt is its position, so adding a knob at the end never changes earlier draws. */
export const FAULT_NAMES = [
  'crashingContainer',
  'unhealthyContainer',
  'slowInstallMs',
  'unreachableChild',
  'stateLoss',
  'clockSkewSeconds',
  'flappingCapabilities',
] as const satisfies readonly FaultName[];

export function isFaultName(name: string): name is FaultName {
  return (FAULT_NAMES as readonly string[]).includes(name);
}

/** Skews stay inside the tolerance a verifier allows by default, so a correct WFM still accepts every device. */
const MAX_SKEW_SECONDS = DEFAULT_CLOCK_SKEW_SECONDS - 5;

/** Faults only a see-thru gateway can show. */
const GATEWAY_ONLY = new Set<FaultName>(['unreachableChild']);

export function faultsFor(seed: number, index: number, mix: FaultMix, kind: DeviceKind = 'plain'): DeviceFaults {
  const faults: DeviceFaults = {};
  FAULT_NAMES.forEach((name, salt) => {
    const p = mix[name] ?? 0;
    if (p <= 0 || uniform(seed, index, 0xfa, salt) >= p) return;
    if (GATEWAY_ONLY.has(name) && kind !== 'see-thru-gateway') return;
    const size = uniform(seed, index, 0xfb, salt);
    if (name === 'slowInstallMs') faults.slowInstallMs = 500 + Math.floor(size * 4500);
    else if (name === 'clockSkewSeconds') faults.clockSkewSeconds = (size < 0.5 ? -1 : 1) * (5 + Math.floor((size % 0.5) * 2 * (MAX_SKEW_SECONDS - 5)));
    else faults[name] = true;
  });
  return faults;
}
