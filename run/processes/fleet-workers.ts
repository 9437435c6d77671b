// `wfmck fleet --workers N`: the fleet spread over N worker processes (fleet-worker.ts), each a shard of the same
// seeded fleet (simulators/fleet/worker-shares.ts). The parent resolved the target once; each worker gets it as data
// and asks the parent for what is a function here (the assignDeployment hook, SPIFFE admission). The workers start
// their fleets together, once all are loaded; their progress is summed into one line, their interval figures merged
// per interval, their summaries merged into one. A stop reaches every worker, which still sends its summary; a worker
// that ends without one is named with the end of its stderr, and the others run on.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { installedPins } from '../../protocol/pinned-lookup.ts';
import { namedTargets } from '../../spec/network-policy.ts';
import type { MergedSummary } from '../../simulators/fleet/merge-summaries.ts';
import type { FleetProgress } from '../../simulators/fleet/progress.ts';
import type { FleetTarget, IntervalMetrics } from '../../simulators/fleet/runner.ts';
import type { FleetSpec } from '../../simulators/fleet/spec.ts';
import type { FleetSummary } from '../../simulators/fleet/summary.ts';
import {
  MergedIntervals,
  mergeWorkerSummaries,
  noProgress,
  sumProgress,
  workerAddresses,
  workerSpec,
} from '../../simulators/fleet/worker-shares.ts';
import type { FromWorker, Question, ToWorker, WorkerTarget } from './fleet-worker.ts';
import { typescriptLoaderArgs } from './typescript-loader.ts';

export interface FleetWorkersOptions {
  workers: number;
  /** Stops every worker (Ctrl-C): each still sends its summary. */
  signal: AbortSignal;
  onProgress: (p: FleetProgress) => void;
  onMetrics?: (m: IntervalMetrics) => void;
  heapGrowthPercent: number;
}

export interface FleetWorkersOutcome {
  /** The workers' summaries merged; fleet CPU is theirs plus this process's, peak RSS the largest worker's. */
  summary: MergedSummary;
  /** One line per worker that ended without a summary. */
  failures: string[];
}

/** How much of a worker's stderr a failure quotes. */
const STDERR_TAIL_CHARS = 2_000;

export async function runFleetWorkers(spec: FleetSpec, target: FleetTarget, opts: FleetWorkersOptions): Promise<FleetWorkersOutcome> {
  const cpu0 = process.cpuUsage();
  const specs = Array.from({ length: opts.workers }, (_, j) => workerSpec(spec, j, opts.workers));
  const progress = specs.map(noProgress);
  const intervals = opts.onMetrics && new MergedIntervals(opts.workers, opts.onMetrics);
  const workers = Array.from({ length: opts.workers }, (_, j) =>
    startWorker(j, opts.workers, target, {
      onProgress: (p) => {
        progress[j] = p;
        opts.onProgress(sumProgress(progress));
      },
      onMetrics: (m, window) => intervals?.add(j, m, window),
      onEnd: () => intervals?.end(j),
    }),
  );
  const stopAll = () => workers.forEach((w) => w.send({ type: 'stop', reason: String(opts.signal.reason ?? 'stopped') }));
  opts.signal.addEventListener('abort', stopAll, { once: true });
  try {
    workers.forEach((w, j) =>
      w.send({
        type: 'start',
        spec: specs[j]!,
        target: workerTarget(target, j, opts.workers),
        pins: installedPins(),
        named: namedTargets(),
        heapGrowthPercent: opts.heapGrowthPercent,
        metrics: opts.onMetrics !== undefined,
      }),
    );
    // The fleets start together once every worker is ready, so they (and their stages) share one start.
    await Promise.all(workers.map((w) => w.ready));
    workers.forEach((w) => w.send({ type: 'go' }));
    if (opts.signal.aborted) stopAll();
    const ended = await Promise.all(workers.map((w) => w.ended));
    const summary = mergeWorkerSummaries(
      spec,
      target,
      ended.map((e) => e.summary),
      opts.signal.aborted,
    );
    const { user, system } = process.cpuUsage(cpu0);
    summary.cpu = { ...summary.cpu, fleetMs: summary.cpu.fleetMs + Math.round((user + system) / 1000) };
    return { summary, failures: ended.flatMap((e) => (e.failure ? [e.failure] : [])) };
  } finally {
    opts.signal.removeEventListener('abort', stopAll);
    // Never one left behind, whatever threw.
    workers.forEach((w) => w.child.exitCode === null && w.child.signalCode === null && w.child.kill('SIGKILL'));
  }
}

/** What a worker needs of the target, as data: its own share of the source addresses, the hook as a flag. */
function workerTarget(target: FleetTarget, j: number, workers: number): WorkerTarget {
  const { deviceCa, spiffe, deployments, sourceAddresses, ...rest } = target;
  return {
    ...rest,
    deviceCa: { certPem: deviceCa.certPem, keyPem: deviceCa.keyPem },
    ...(spiffe && { spiffe: { trustDomain: spiffe.trustDomain, wfmId: spiffe.wfmId, admits: spiffe.admit !== undefined } }),
    ...(sourceAddresses && { sourceAddresses: workerAddresses(sourceAddresses, j, workers) }),
    ...(deployments && { components: deployments.components }),
  };
}

interface Worker {
  child: ChildProcess;
  /** Prepared and waiting for `go` (or gone before). */
  ready: Promise<void>;
  ended: Promise<{ summary?: FleetSummary; failure?: string }>;
  send(message: ToWorker): void;
}

interface WorkerEvents {
  onProgress(p: FleetProgress): void;
  onMetrics(m: IntervalMetrics, window: Extract<FromWorker, { type: 'metrics' }>['window']): void;
  onEnd(): void;
}

function startWorker(j: number, workers: number, target: FleetTarget, events: WorkerEvents): Worker {
  const child = fork(fileURLToPath(new URL('./fleet-worker.ts', import.meta.url)), [], {
    execArgv: typescriptLoaderArgs(),
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const name = `worker ${j + 1}/${workers} (pid ${child.pid})`;
  let stderr = '';
  let line = '';
  // Passed on line by line, each named with its worker.
  const pass = (text: string) => text && process.stderr.write(text.replace(/^/gm, `wfmck fleet: ${name}: `) + '\n');
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
    const lines = (line + chunk).split('\n');
    line = lines.pop()!;
    pass(lines.join('\n'));
  });
  child.stderr!.on('end', () => pass(line));
  const send = (message: ToWorker) => void (child.connected && child.send(message));
  let summary: FleetSummary | undefined;
  let failed: string | undefined;
  let loaded!: () => void;
  const ready = new Promise<void>((resolve) => (loaded = resolve));
  child.on('message', (m: FromWorker) => {
    if (m.type === 'ready') loaded();
    else if (m.type === 'progress') events.onProgress(m.progress);
    else if (m.type === 'metrics') events.onMetrics(m.metrics, m.window);
    else if (m.type === 'done') summary = m.summary;
    else if (m.type === 'failed') failed = m.message.split('\n')[0];
    else if (m.type === 'ask') answer(m.id, m, target, send);
  });
  // 'close': the process ended and its stderr and IPC channel are drained, so its last message has arrived.
  const ended = new Promise<{ summary?: FleetSummary; failure?: string }>((resolve) => {
    child.on('error', (err) => (failed ??= err.message));
    child.on('close', (code, signal) => {
      loaded();
      events.onEnd();
      if (summary) return resolve({ summary });
      const how = signal ?? `exit ${code}`;
      const tail = stderr.trim() ? `; the end of its stderr:\n${stderr.trimEnd()}` : '; nothing on its stderr';
      resolve({ failure: `${name} ended (${how}) without a summary${failed ? `: ${failed}` : ''}${tail}` });
    });
  });
  return { child, ready, ended, send };
}

/** A worker's question answered with the parent's own hook or admission. */
function answer(id: number, q: Question, target: FleetTarget, send: (m: ToWorker) => void): void {
  const asked =
    q.what === 'assign'
      ? target.deployments
        ? target.deployments.assign(q.input)
        : Promise.reject(new Error('this target assigns no deployments'))
      : Promise.resolve(target.spiffe?.admit?.(q.spiffeId)).then(() => ({}));
  asked.then(
    (output) => send({ type: 'answer', id, output }),
    (err: Error & { code?: string }) =>
      send({ type: 'answer', id, error: { message: err.message, ...(err.code !== undefined && { code: err.code }) } }),
  );
}
