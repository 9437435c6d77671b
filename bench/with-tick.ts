// A fleet device with its tick replaced: the benchmarks keep the driver's start (onboarding, capabilities) and decide
// what a tick does (nothing, or one PUT).
import type { SimulatedDevice } from '../simulators/device/types.ts';

/** `afterStart` is told when start() is over, whether the device reached `reporting` or not. */
export function withTick(device: SimulatedDevice, tick: () => Promise<void>, afterStart: () => void = () => undefined): SimulatedDevice {
  return {
    id: device.id,
    kind: device.kind,
    get phase() {
      return device.phase;
    },
    get clientId() {
      return device.clientId;
    },
    start: async () => {
      try {
        await device.start();
      } finally {
        afterStart();
      }
    },
    tick,
    stop: () => device.stop(),
  };
}
