// Started devices waiting for their next tick. Every push is `now + interval`, so the queue is already in time
// order and a FIFO is enough: O(1) push and take, no heap.
import type { SimulatedDevice } from '../device/types.ts';

export class TickQueue {
  private devices: (SimulatedDevice | undefined)[] = [];
  private times: number[] = [];
  private head = 0;

  get size(): number {
    return this.devices.length - this.head;
  }

  /** Time of the earliest waiting tick (Infinity when empty). */
  get nextAt(): number {
    return this.size > 0 ? this.times[this.head]! : Infinity;
  }

  push(device: SimulatedDevice, at: number): void {
    this.devices.push(device);
    this.times.push(at);
  }

  takeDue(now: number): SimulatedDevice | undefined {
    if (this.size === 0 || this.times[this.head]! > now) return undefined;
    const device = this.devices[this.head];
    this.devices[this.head++] = undefined;
    // Drop the consumed front once it outweighs the rest, so memory follows live devices only.
    if (this.head > 1024 && this.head * 2 > this.devices.length) {
      this.devices = this.devices.slice(this.head);
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    return device;
  }
}
