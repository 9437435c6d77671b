// The fleet runner: devices created lazily from the fleet's descriptions, `concurrency` of them starting or ticking
// at once, every request under one token bucket, and statistics folded from their events as they happen.
import { setMaxListeners } from 'node:events';
import { describeFleet, fleetLayout, type FleetLayout } from '../data/describe.ts';
import type { DeviceDescription, DeviceObserver, SimulatedDevice } from '../device/types.ts';
import type { DeploymentStatusReport } from '../../spec/types.ts';
import type { Issued } from '../../protocol/pki.ts';
import { peakRssBytes } from './peak-rss.ts';
import { resolveProfile, type Profile } from '../../spec/profile.ts';
import type { FleetProgress } from './progress.ts';
import { tokenBucket, type RateLimiter } from './rate-limit.ts';
import { assignDeployments, type DeploymentSource } from './assigned-deployments.ts';
import { FleetSpecError, type FleetSpec } from './spec.ts';
import { FleetStats, type FleetTotals } from './stats.ts';
import { FleetScheduler } from './scheduler.ts';
import type { Histogram } from './histogram.ts';

export interface FleetTarget {
  /** Base URL of the WFM; only loopback addresses (see target.ts). */
  wfm: string;
  /** PEM the WFM's TLS certificate chains to, when it is not in the system store. */
  ca?: string;
  /** Issues each device's certificate (a CA the WFM trusts at onboarding; miaf: an SVID CA in its trust bundle). */
  deviceCa: Issued;
  /** miaf (P10): the SPIFFE names of the WFM and how a device's client is admitted before first use. */
  spiffe?: FleetSpiffe;
  /** miaf: loopback addresses devices connect from, round robin (one connection per device passes ~28k ports each). */
  sourceAddresses?: string[];
  profile?: Profile;
  /** What to deploy and how to assign it (P5 assignDeployment); without it a fleet assigns nothing. */
  deployments?: DeploymentSource;
  /** A folder of device credentials kept between runs (cert-cache.ts); without it each start mints. */
  certCache?: string;
}

export interface FleetSpiffe {
  trustDomain: string;
  wfmId: string;
  /** P10 hook admitClient; absent = the WFM's policy admits by itself. */
  admit?: (spiffeId: string) => Promise<void>;
}

export interface DeviceContext {
  observer: DeviceObserver;
  signal: AbortSignal;
  /** Every status report a device sent, with the HTTP status it was answered with. */
  onStatusReport?: (deviceId: string, report: DeploymentStatusReport, status: number) => void;
}

/** How the environment's devices behave, from the fleet spec. */
export interface EnvironmentSettings {
  /** Per request, body included. */
  timeoutMs: number;
  /** Multiplies the devices' simulated waits. */
  timeScale: number;
  /** Clients this fleet (shard) starts: a large fleet keeps its keys another way (device-keys.ts). */
  clients?: number;
}

/** Where devices come from: the real driver over one shared agent (devices.ts), or fakes in tests. */
export interface FleetEnvironment {
  createDevice(desc: DeviceDescription, ctx: DeviceContext): SimulatedDevice | Promise<SimulatedDevice>;
  /** Aborts every in-flight request at once (Ctrl-C). */
  abort(): void;
  close(): Promise<void>;
}

export type EnvironmentFactory = (target: FleetTarget, limiter: RateLimiter, settings: EnvironmentSettings) => Promise<FleetEnvironment>;

export interface RunFleetOptions {
  signal?: AbortSignal;
  onProgress?: (p: FleetProgress) => void;
  progressIntervalMs?: number;
  /** Interval figures (--metrics-out), every metricsIntervalMs and once at the end; `window` holds the interval's
   * latencies (a fleet over workers merges them, fleet-workers.ts). */
  onMetrics?: (m: IntervalMetrics, window: Histogram) => void;
  metricsIntervalMs?: number;
  environment?: EnvironmentFactory;
}

export interface FleetResult {
  spec: FleetSpec;
  /** What this shard should reach: clients, deviceIds. */
  layout: FleetLayout;
  totals: FleetTotals;
  startedAt: string;
  endedAt: string;
  wallMs: number;
  /** From the first start to the end of the last one. */
  startPhaseMs: number;
  peakRssBytes: number;
  /** The fleet process's CPU time (user + system) over the run, in ms. */
  cpuMs: number;
  interrupted: boolean;
  /** Every device onboarded and reporting, every deviceId created, nothing unexpected (deployments included), not interrupted. */
  passed: boolean;
}

/** One JSON line of --metrics-out: the interval's requests, errors and latency, and where the fleet stands. */
export interface IntervalMetrics {
  at: string;
  elapsedMs: number;
  clients: FleetProgress['clients'];
  requests: number;
  requestsPerSecond: number;
  unexpected: number;
  transportErrors: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  rssBytes: number;
  /** Where the RSS goes: V8's heap in use, and memory outside it that V8 is told of (Buffers, crypto outputs). */
  heapUsedBytes: number;
  externalBytes: number;
}

/** A function that emits the figures since its last call (and starts the next interval). */
function intervalMetrics(stats: FleetStats, t0: number, emit: NonNullable<RunFleetOptions['onMetrics']>): () => void {
  let last = { at: t0, requests: 0, unexpected: 0, transportErrors: 0 };
  return () => {
    const now = performance.now();
    const { total, unexpected, transportErrors } = stats.requests;
    const w = stats.window;
    const round = (n: number) => Math.round(n * 100) / 100;
    emit(
      {
        at: new Date().toISOString(),
        elapsedMs: Math.round(now - t0),
        clients: { ...stats.clients },
        requests: total - last.requests,
        requestsPerSecond: now > last.at ? round(((total - last.requests) * 1000) / (now - last.at)) : 0,
        unexpected: unexpected - last.unexpected,
        transportErrors: transportErrors - last.transportErrors,
        p50Ms: round(w.percentile(0.5)),
        p95Ms: round(w.percentile(0.95)),
        p99Ms: round(w.percentile(0.99)),
        ...memoryNow(),
      },
      w,
    );
    w.reset();
    last = { at: now, requests: total, unexpected, transportErrors };
  };
}

export async function runFleet(asked: FleetSpec, target: FleetTarget, opts: RunFleetOptions = {}): Promise<FleetResult> {
  const spec = withDeployments(asked, target);
  const startedAt = new Date();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const layout = fleetLayout(spec, spec.shard);
  const stats = new FleetStats();
  const stop = new AbortController();
  // Every device's waits listen to it: thousands, by design.
  setMaxListeners(0, stop.signal);
  const onAbort = () => stop.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) onAbort();
  const factory = opts.environment ?? (await import('./devices.ts')).realEnvironment;
  const profile = target.profile ?? resolveProfile({ quantityFormat: spec.quantityFormat });
  const env = await factory({ ...target, profile }, tokenBucket(spec.rate, spec.burst), {
    timeoutMs: spec.timeout,
    timeScale: spec.timeScale,
    clients: layout.clients,
  });
  stop.signal.addEventListener('abort', () => env.abort(), { once: true });
  const sampling = startSampling(stats, layout, t0, opts);

  stats.deployments.perDevice = spec.deployments;
  const ctx: DeviceContext = {
    observer: stats.record,
    signal: stop.signal,
    onStatusReport: (deviceId, report, status) => stats.deployments.reported(deviceId, report, status),
  };
  const scheduler = new FleetScheduler({
    spec,
    env,
    ctx,
    stats,
    t0,
    // Stages ramp the starts: this shard's share of each stage's target.
    fraction: spec.stages.length ? layout.clients / Math.max(1, fleetLayout(spec, { index: 0, count: 1 }).clients) : 1,
    descriptions: describeFleet(spec, spec.shard)[Symbol.iterator](),
    // Assigned once the client reports, before its first tick, so that tick polls, fetches, applies and reports them.
    onReporting: async (desc, clientId) => {
      if (!target.deployments || spec.deployments === 0) return;
      const onError = (deviceId: string, err: unknown) => stop.signal.aborted || stats.assignError(deviceId, err);
      await assignDeployments(target.deployments, desc, clientId, spec.deployments, stats.deployments, onError, stop.signal);
    },
  });

  try {
    await scheduler.run();
  } finally {
    sampling.stop();
    opts.signal?.removeEventListener('abort', onAbort);
    await env.close();
  }
  const peakRss = sampling.finalPeakRss();
  opts.onProgress?.(sampling.progress());
  const totals = stats.totals();
  const interrupted = stop.signal.aborted;
  const endedAt = new Date();
  return {
    spec,
    layout,
    totals,
    startedAt: startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    wallMs: Math.round(performance.now() - t0),
    startPhaseMs: Math.round(scheduler.lastStartEnd - t0),
    peakRssBytes: peakRss,
    cpuMs: cpuMsSince(cpu0),
    interrupted,
    passed: fleetPassed(totals, layout, interrupted),
  };
}

/** The spec with its deployments per device: one when the target can assign them and the spec says nothing. */
export function withDeployments(asked: FleetSpec, target: FleetTarget): FleetSpec & { deployments: number } {
  const spec = { ...asked, deployments: asked.deployments ?? (target.deployments ? 1 : 0) };
  if (spec.deployments > 0 && !target.deployments) {
    throw new FleetSpecError(
      '"deployments": this target has no way to assign deployments (the embedded default, or an assignDeployment hook)',
    );
  }
  return spec;
}

/**
 * The fleet's sampling while it runs: progress (and the peak RSS) every progressIntervalMs, interval figures every
 * metricsIntervalMs; stop() emits the last interval.
 */
function startSampling(stats: FleetStats, layout: FleetLayout, t0: number, opts: RunFleetOptions) {
  let peakRss = process.memoryUsage.rss();
  const progress = (): FleetProgress => ({
    elapsedMs: performance.now() - t0,
    clientsTotal: layout.clients,
    clients: { ...stats.clients },
    requests: stats.requests.total,
    errors: Object.fromEntries(stats.errors),
  });
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    opts.onProgress?.(progress());
  }, opts.progressIntervalMs ?? 250);
  const metrics = opts.onMetrics && intervalMetrics(stats, t0, opts.onMetrics);
  const metricsTimer = metrics && setInterval(metrics, opts.metricsIntervalMs ?? 5_000);
  return {
    progress,
    stop() {
      clearInterval(timer);
      if (metricsTimer) clearInterval(metricsTimer);
      metrics?.();
    },
    /** The kernel's high-water mark catches a peak between two samples. */
    finalPeakRss: () => (peakRss = Math.max(peakRss, peakRssBytes(peakRss))),
  };
}

/** Every device onboarded and reporting, every deviceId created, nothing unexpected (deployments included), not interrupted. */
function fleetPassed(totals: FleetTotals, layout: FleetLayout, interrupted: boolean): boolean {
  return (
    !interrupted &&
    totals.clients.onboarded === layout.clients &&
    totals.clients.reporting === layout.clients &&
    totals.deviceIdsCreated === layout.deviceIds &&
    totals.requests.unexpected === 0 &&
    totals.requests.transportErrors === 0 &&
    totals.deployments.assignErrors === 0 &&
    Object.keys(totals.deployments.failed).length === 0
  );
}

function memoryNow(): Pick<IntervalMetrics, 'rssBytes' | 'heapUsedBytes' | 'externalBytes'> {
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rssBytes: rss, heapUsedBytes: heapUsed, externalBytes: external };
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return Math.round((user + system) / 1000);
}
