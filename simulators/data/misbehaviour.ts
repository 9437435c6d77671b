// Misbehaviour knobs per device (a crashing container, flapping capabilities, clock skew) from a mix of probabilities,
// drawn deterministically from (seed, index). These make a QA fleet realistic; the rule-breaking faults that prove
// checks fail are another thing (faults/catalog.yaml).
import type { DeviceMisbehaviour, DeviceKind } from '../device/types.ts';
import { DEFAULT_CLOCK_SKEW_SECONDS } from '../../protocol/signing.ts';
import { uniform } from './draw.ts';

export type MisbehaviourName = keyof DeviceMisbehaviour;
/** Probability per fault, e.g. `{ crashingContainer: 0.05, flappingCapabilities: 0.1 }`. */
export type MisbehaviourMix = Partial<Record<MisbehaviourName, number>>;

/** Fixed order: a fault's salt is its position, so adding a knob at the end never changes earlier draws. */
export const FAULT_NAMES = [
  'crashingContainer',
  'unhealthyContainer',
  'slowInstallMs',
  'unreachableChild',
  'stateLoss',
  'clockSkewSeconds',
  'flappingCapabilities',
] as const satisfies readonly MisbehaviourName[];

export function isFaultName(name: string): name is MisbehaviourName {
  return (FAULT_NAMES as readonly string[]).includes(name);
}

/** Skews stay inside the tolerance a verifier allows by default, so a correct WFM still accepts every device. */
const MAX_SKEW_SECONDS = DEFAULT_CLOCK_SKEW_SECONDS - 5;

/** Faults only a see-thru gateway can show. */
const GATEWAY_ONLY = new Set<MisbehaviourName>(['unreachableChild']);

export function misbehaviourFor(seed: number, index: number, mix: MisbehaviourMix, kind: DeviceKind = 'plain'): DeviceMisbehaviour {
  const faults: DeviceMisbehaviour = {};
  FAULT_NAMES.forEach((name, salt) => {
    const p = mix[name] ?? 0;
    if (p <= 0 || uniform(seed, index, 0xfa, salt) >= p) return;
    if (GATEWAY_ONLY.has(name) && kind !== 'see-thru-gateway') return;
    const size = uniform(seed, index, 0xfb, salt);
    if (name === 'slowInstallMs') faults.slowInstallMs = 500 + Math.floor(size * 4500);
    else if (name === 'clockSkewSeconds')
      faults.clockSkewSeconds = (size < 0.5 ? -1 : 1) * (5 + Math.floor((size % 0.5) * 2 * (MAX_SKEW_SECONDS - 5)));
    else faults[name] = true;
  });
  return faults;
}
