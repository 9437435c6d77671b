// A fleet over worker processes (`wfmck fleet --workers N`), the pure part: what each worker runs, and how the workers'
// figures become the fleet's. Worker j runs a shard of the user's shard, so the workers together hold exactly the
// devices one process would, and each runs its share of the fleet-wide load (rate, burst, concurrency): the same fleet
// at the same load whatever N. Their summaries merge with the code `wfmck merge` uses (merge-summaries.ts).
import { fleetLayout } from '../data/describe.ts';
import { Histogram, type LatencySummary } from './histogram.ts';
import { mergeSummaries, type MergedSummary } from './merge-summaries.ts';
import type { FleetProgress } from './progress.ts';
import type { IntervalMetrics } from './runner.ts';
import { formatShard, type FleetSpec, type Shard } from './spec.ts';
import { FleetStats } from './stats.ts';
import { fleetSummary, type FleetSummary } from './summary.ts';

/**
 * Worker j of N within the user's shard i/m (0-based index i): of the devices k with k mod m = i, every N-th one,
 * i.e. k mod (m * N) = i + m * j. With m = 1, simply shard j+1/N.
 */
export function workerShard(shard: Shard, worker: number, workers: number): Shard {
  return { index: shard.index + shard.count * worker, count: shard.count * workers };
}

/** The spec worker j runs: its shard, and its share of the fleet-wide rate, token bucket and concurrency. */
export function workerSpec(spec: FleetSpec, worker: number, workers: number): FleetSpec {
  const share = (n: number) => Math.max(1, Math.ceil(n / workers));
  return {
    ...spec,
    shard: workerShard(spec.shard, worker, workers),
    rate: spec.rate / workers,
    burst: share(spec.burst),
    concurrency: share(spec.concurrency),
  };
}

/** No more workers than the shard has top-level devices (a worker without devices would only cost a process). */
export function usefulWorkers(spec: FleetSpec, asked: number): number {
  return Math.max(1, Math.min(asked, fleetLayout(spec, spec.shard).clients));
}

/** miaf: worker j's source addresses, every N-th of the list, so no two workers share one (the list holds >= N). */
export function workerAddresses(all: readonly string[], worker: number, workers: number): string[] {
  return all.filter((_, i) => i % workers === worker);
}

/** A worker's progress before its first report: none of its devices started yet. */
export function noProgress(spec: FleetSpec): FleetProgress {
  const clients = { created: 0, onboarded: 0, reporting: 0, failed: 0 };
  return { elapsedMs: 0, clientsTotal: fleetLayout(spec, spec.shard).clients, clients, requests: 0, errors: {} };
}

/** The fleet's progress line from each worker's latest: counts summed, the longest elapsed time. */
export function sumProgress(parts: readonly FleetProgress[]): FleetProgress {
  const errors: Record<string, number> = {};
  for (const p of parts) for (const [code, n] of Object.entries(p.errors)) errors[code] = (errors[code] ?? 0) + n;
  const sum = (pick: (p: FleetProgress) => number) => parts.reduce((n, p) => n + pick(p), 0);
  return {
    elapsedMs: Math.max(0, ...parts.map((p) => p.elapsedMs)),
    clientsTotal: sum((p) => p.clientsTotal),
    clients: {
      created: sum((p) => p.clients.created),
      onboarded: sum((p) => p.clients.onboarded),
      reporting: sum((p) => p.clients.reporting),
      failed: sum((p) => p.clients.failed),
    },
    requests: sum((p) => p.requests),
    errors,
  };
}

/**
 * --metrics-out over workers: the k-th interval of every worker merged into the fleet's k-th line once each worker has
 * sent it or ended. Flows (requests, errors) and memory are summed over the workers in the interval, latency
 * percentiles come from their merged histograms (exact), clients are each worker's latest state summed.
 */
export class MergedIntervals {
  private readonly queued: { metrics: IntervalMetrics; window: LatencySummary }[][];
  private readonly latest: (IntervalMetrics['clients'] | undefined)[];
  private readonly ended: boolean[];

  constructor(
    workers: number,
    private readonly emit: (m: IntervalMetrics) => void,
  ) {
    this.queued = Array.from({ length: workers }, () => []);
    this.latest = new Array(workers).fill(undefined);
    this.ended = new Array(workers).fill(false);
  }

  add(worker: number, metrics: IntervalMetrics, window: LatencySummary): void {
    this.queued[worker]!.push({ metrics, window });
    this.flush();
  }

  /** The worker sends no more intervals (it finished or died): the others no longer wait for it. */
  end(worker: number): void {
    this.ended[worker] = true;
    this.flush();
  }

  private flush(): void {
    const ready = () => this.queued.some((q) => q.length > 0) && this.queued.every((q, j) => q.length > 0 || this.ended[j]);
    while (ready()) {
      const parts = this.queued.flatMap((q, j) => {
        const next = q.shift();
        if (next) this.latest[j] = next.metrics.clients;
        return next ? [next] : [];
      });
      this.emit(this.merged(parts));
    }
  }

  private merged(parts: { metrics: IntervalMetrics; window: LatencySummary }[]): IntervalMetrics {
    const window = new Histogram();
    for (const p of parts) window.merge(Histogram.fromSummary(p.window));
    const sum = (key: 'requests' | 'unexpected' | 'transportErrors' | 'rssBytes' | 'heapUsedBytes' | 'externalBytes') =>
      parts.reduce((n, p) => n + p.metrics[key], 0);
    const clients = this.latest.filter((c) => c !== undefined);
    const round = (n: number) => Math.round(n * 100) / 100;
    return {
      at: parts.map((p) => p.metrics.at).sort()[parts.length - 1]!,
      elapsedMs: Math.max(...parts.map((p) => p.metrics.elapsedMs)),
      clients: {
        created: clients.reduce((n, c) => n + c.created, 0),
        onboarded: clients.reduce((n, c) => n + c.onboarded, 0),
        reporting: clients.reduce((n, c) => n + c.reporting, 0),
        failed: clients.reduce((n, c) => n + c.failed, 0),
      },
      requests: sum('requests'),
      requestsPerSecond: round(parts.reduce((n, p) => n + p.metrics.requestsPerSecond, 0)),
      unexpected: sum('unexpected'),
      transportErrors: sum('transportErrors'),
      p50Ms: round(window.percentile(0.5)),
      p95Ms: round(window.percentile(0.95)),
      p99Ms: round(window.percentile(0.99)),
      rssBytes: sum('rssBytes'),
      heapUsedBytes: sum('heapUsedBytes'),
      externalBytes: sum('externalBytes'),
    };
  }
}

/**
 * The fleet's summary from its workers' (undefined: a worker that ended without one). Each is labelled j/N for the
 * merge, so it is complete when every worker's is there; the result then speaks of the fleet the user asked for:
 * their shard and load settings, and what that shard should reach (a missing worker's devices count as not reporting).
 */
export function mergeWorkerSummaries(
  spec: FleetSpec,
  target: { wfm: string },
  summaries: readonly (FleetSummary | undefined)[],
  interrupted: boolean,
): MergedSummary {
  const workers = summaries.length;
  const present = summaries.flatMap((summary, j) =>
    summary
      ? [
          {
            source: `worker ${j + 1}/${workers}`,
            summary: { ...summary, spec: { ...summary.spec, shard: { index: j, count: workers } }, shard: `${j + 1}/${workers}` },
          },
        ]
      : [],
  );
  const merged = present.length > 0 ? mergeSummaries(present) : noWorkerSummary(spec, target, interrupted);
  const { rate, burst, concurrency, shard } = spec;
  return {
    ...merged,
    spec: { ...merged.spec, rate, burst, concurrency, shard },
    shard: formatShard(shard),
    expected: fleetLayout(spec, shard),
  };
}

/** No worker sent a summary: an empty one of the fleet, which did not run clean. */
function noWorkerSummary(spec: FleetSpec, target: { wfm: string }, interrupted: boolean): MergedSummary {
  const now = new Date().toISOString();
  const summary = fleetSummary(
    {
      spec,
      layout: fleetLayout(spec, spec.shard),
      totals: new FleetStats().totals(),
      startedAt: now,
      endedAt: now,
      wallMs: 0,
      startPhaseMs: 0,
      peakRssBytes: 0,
      cpuMs: 0,
      interrupted,
      passed: false,
    },
    target,
  );
  return { ...summary, complete: false, mergedFrom: [] };
}
