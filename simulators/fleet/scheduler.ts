// How a fleet's devices take turns: `concurrency` workers each take the next tick that is due, else the next start
// the stages allow, else wait for whichever comes first; a device reporting after its start ticks every tickInterval
// while the duration lasts (at least `minTicks` times), and each outcome is counted in the fleet's statistics.
import { sleep } from '../transport/retry.ts';
import type { DeviceDescription, SimulatedDevice } from '../device/types.ts';
import type { DeviceContext, FleetEnvironment } from './runner.ts';
import type { FleetSpec } from './spec.ts';
import { startsAllowed } from './stages.ts';
import type { FleetStats } from './stats.ts';
import { TickQueue } from './tick-queue.ts';

/** How often a start the stages hold back is tried again. */
const STAGE_POLL_MS = 20;

export interface SchedulerOptions {
  spec: Pick<FleetSpec, 'concurrency' | 'stages' | 'tickInterval' | 'duration'> & { deployments: number };
  env: FleetEnvironment;
  ctx: DeviceContext;
  stats: FleetStats;
  /** performance.now() at the fleet's start. */
  t0: number;
  /** This shard's share of each stage's target. */
  fraction: number;
  descriptions: Iterator<DeviceDescription>;
  /** What a device gets once it reports, before its first tick (its deployments). */
  onReporting(desc: DeviceDescription, clientId: string): Promise<void>;
}

export class FleetScheduler {
  /** When the last start ended (performance.now()): the end of the start phase. */
  lastStartEnd: number;
  private readonly ticks = new TickQueue();
  private readonly ticked = new WeakMap<SimulatedDevice, number>();
  private readonly deadline: number;
  private readonly interval: number;
  /** With deployments, a second tick polls again after the install: where stateLoss strikes and a stalled apply resumes. */
  private readonly minTicks: number;
  private exhausted = false;
  private started = 0;

  constructor(private readonly o: SchedulerOptions) {
    this.lastStartEnd = o.t0;
    this.deadline = o.t0 + o.spec.duration * 1000;
    this.interval = o.spec.tickInterval * 1000;
    this.minTicks = o.spec.deployments > 0 ? 2 : 1;
  }

  /** Until every device has started and ticked its last, or the fleet stops. */
  async run(): Promise<void> {
    await Promise.all(Array.from({ length: this.o.spec.concurrency }, () => this.worker()));
  }

  private get signal(): AbortSignal {
    return this.o.ctx.signal;
  }

  private async worker(): Promise<void> {
    const { spec, t0, fraction, descriptions } = this.o;
    const ticks = this.ticks;
    while (!this.signal.aborted) {
      const due = ticks.takeDue(performance.now());
      if (due) await this.tick(due);
      else if (!this.exhausted && this.started >= startsAllowed(spec.stages, performance.now() - t0, fraction)) {
        // The ramp holds the next start back: wait for it or for the next tick, whichever comes first.
        await sleep(Math.min(STAGE_POLL_MS, ticks.size > 0 ? ticks.nextAt - performance.now() : STAGE_POLL_MS), this.signal).catch(
          () => undefined,
        );
      } else if (!this.exhausted) {
        const next = descriptions.next();
        if (next.done) this.exhausted = true;
        else {
          this.started++;
          await this.start(next.value);
        }
      } else if (ticks.size > 0) await sleep(ticks.nextAt - performance.now(), this.signal).catch(() => undefined);
      else return;
    }
  }

  private async start(desc: DeviceDescription): Promise<void> {
    const { env, ctx, stats } = this.o;
    const failed = (err: unknown) => {
      if (!this.signal.aborted) stats.deviceError(desc.id, err);
    };
    const device = await Promise.resolve()
      .then(() => env.createDevice(desc, ctx))
      .catch((err: unknown) => void failed(err));
    if (device) {
      stats.clients.created++;
      await device.start().catch(failed);
    }
    this.lastStartEnd = performance.now();
    if (this.signal.aborted) return;
    if (!device) return void stats.clients.failed++;
    if (device.clientId !== undefined) stats.clients.onboarded++;
    if (device.phase === 'reporting') {
      stats.clients.reporting++;
      await this.o.onReporting(desc, device.clientId!);
      this.ticks.push(device, performance.now() + this.interval);
    } else stats.clients.failed++;
  }

  private async tick(device: SimulatedDevice): Promise<void> {
    const stats = this.o.stats;
    try {
      await device.tick();
    } catch (err) {
      if (!this.signal.aborted) stats.deviceError(device.id, err);
    }
    if (this.signal.aborted) return;
    if (device.phase !== 'reporting') {
      stats.clients.reporting--;
      stats.clients.failed++;
      return;
    }
    // At least `minTicks` ticks per device, however long the start phase took; after that only while the duration lasts.
    const owing = this.owesTicks(device);
    const next = performance.now() + this.interval;
    if (next < this.deadline || owing) this.ticks.push(device, next);
  }

  /** Counts a tick and says whether the device still owes some of its `minTicks`. */
  private owesTicks(device: SimulatedDevice): boolean {
    // One tick owed: the tick just made paid it (no WeakMap lookup and write per tick).
    if (this.minTicks === 1) return false;
    const count = (this.ticked.get(device) ?? 0) + 1;
    this.ticked.set(device, count);
    return count < this.minTicks;
  }
}
