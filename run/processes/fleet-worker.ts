// One worker process of `wfmck fleet --workers N`, started by fleet-workers.ts: it runs its shard of the fleet
// (runFleet) against the target the parent resolved, and sends the parent its progress, its interval figures and its
// summary. What only the parent holds (the assignDeployment hook, SPIFFE admission) it asks for over IPC. A stop
// message or a signal stops it as Ctrl-C stops a fleet (it still sends its summary); it ends with its parent.
import { loadIssued } from '../../protocol/pki.ts';
import { installPins, type Pin } from '../../protocol/pinned-lookup.ts';
import { nameTargets } from '../../spec/network-policy.ts';
import type { AssignedComponent, AssignInput } from '../../simulators/fleet/assigned-deployments.ts';
import { boundHeapGrowth } from '../../simulators/fleet/heap-growth.ts';
import type { LatencySummary } from '../../simulators/fleet/histogram.ts';
import type { FleetProgress } from '../../simulators/fleet/progress.ts';
import { runFleet, type FleetTarget, type IntervalMetrics } from '../../simulators/fleet/runner.ts';
import type { FleetSpec } from '../../simulators/fleet/spec.ts';
import { fleetSummary, type FleetSummary } from '../../simulators/fleet/summary.ts';
import type { Profile } from '../../spec/profile.ts';
import { validate } from '../../spec/schemas/index.ts';
import { validateComposeSpec } from '../../spec/schemas/compose-spec.ts';
import { catchSignals } from './signals.ts';
import { endWithParent } from './watchdog.ts';

/** The target as it crosses to a worker: data only; the parent's functions become questions (`ask`). */
export interface WorkerTarget {
  wfm: string;
  ca?: string;
  deviceCa: { certPem: string; keyPem: string };
  spiffe?: { trustDomain: string; wfmId: string; admits: boolean };
  sourceAddresses?: string[];
  profile?: Profile;
  /** What the parent's assignDeployment hook assigns; absent: the target assigns nothing. */
  components?: AssignedComponent[];
  certCache?: string;
}

export type ToWorker =
  | {
      type: 'start';
      spec: FleetSpec;
      target: WorkerTarget;
      pins: readonly Pin[];
      /** The hosts the command's user named (--wfm, --component): as in the command, a device contacts those and loopback. */
      named: readonly string[];
      heapGrowthPercent: number;
      metrics: boolean;
    }
  /** Every worker is ready: the fleets start. */
  | { type: 'go' }
  | { type: 'answer'; id: number; output?: object; error?: { message: string; code?: string } }
  | { type: 'stop'; reason: string };

export type Question = { what: 'assign'; input: AssignInput } | { what: 'admit'; spiffeId: string };

export type FromWorker =
  /** Prepared (pins, target, validators): waiting for `go`. */
  | { type: 'ready' }
  | { type: 'progress'; progress: FleetProgress }
  | { type: 'metrics'; metrics: IntervalMetrics; window: LatencySummary }
  | ({ type: 'ask'; id: number } & Question)
  | { type: 'done'; summary: FleetSummary }
  | { type: 'failed'; message: string };

const stop = new AbortController();
const waiting = new Map<number, { resolve: (output: object) => void; reject: (e: Error) => void }>();
let nextId = 0;

function send(message: FromWorker, then?: () => void): void {
  if (process.connected) process.send!(message, () => then?.());
  else then?.();
}

function ask(question: Question): Promise<object> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    send({ type: 'ask', id, ...question });
  });
}

/** The parent's target with its functions as questions to the parent. */
async function targetOf(t: WorkerTarget): Promise<FleetTarget> {
  const { spiffe, components, deviceCa, ...rest } = t;
  return {
    ...rest,
    deviceCa: await loadIssued(deviceCa.certPem, deviceCa.keyPem),
    ...(spiffe && {
      spiffe: {
        trustDomain: spiffe.trustDomain,
        wfmId: spiffe.wfmId,
        ...(spiffe.admits && { admit: async (spiffeId: string) => void (await ask({ what: 'admit', spiffeId })) }),
      },
    }),
    ...(components && {
      deployments: { components, assign: async (input) => (await ask({ what: 'assign', input })) as { deploymentId: string } },
    }),
  };
}

/** Everything but the fleet itself, so the workers start their fleets together once all are ready. */
async function prepare(m: Extract<ToWorker, { type: 'start' }>): Promise<() => Promise<void>> {
  installPins(m.pins);
  nameTargets(m.named);
  boundHeapGrowth(m.heapGrowthPercent);
  const target = await targetOf(m.target);
  // The documents a device checks: their validators compiled now, not by the first devices of the run.
  await import('../../simulators/fleet/devices.ts');
  const vendor = m.target.profile?.vendor;
  for (const name of ['StateManifest', 'ApplicationDeployment', 'ComposeComponentManifest'] as const) validate(name, {}, { vendor });
  validateComposeSpec({});
  return async () => {
    const result = await runFleet(m.spec, target, {
      signal: stop.signal,
      onProgress: (progress) => send({ type: 'progress', progress }),
      ...(m.metrics && { onMetrics: (metrics, window) => send({ type: 'metrics', metrics, window: window.mergeableSummary() }) }),
    });
    send({ type: 'done', summary: fleetSummary(result, target) }, () => process.exit(0));
  };
}

function failed(err: unknown): void {
  send({ type: 'failed', message: (err as Error).stack ?? String(err) }, () => process.exit(1));
}

let prepared: Promise<() => Promise<void>> | undefined;
process.on('message', (m: ToWorker) => {
  if (m.type === 'start') return void (prepared = prepare(m)).then(() => send({ type: 'ready' }), failed);
  if (m.type === 'go') return void prepared?.then((run) => run()).catch(failed);
  if (m.type === 'stop') return void stop.abort(new Error(m.reason));
  const w = waiting.get(m.id);
  waiting.delete(m.id);
  if (m.error) w?.reject(Object.assign(new Error(m.error.message), m.error.code && { code: m.error.code }));
  else w?.resolve(m.output ?? {});
});
// A terminal's Ctrl-C reaches the whole process group: the worker stops as the parent asks it to, summary and all.
catchSignals({ onSignal: (signal) => stop.abort(new Error(`interrupted by ${signal}`)) });
// The parent gone (killed by a second signal, say): nobody is left to send a summary to.
process.on('disconnect', () => process.exit(1));
endWithParent('fleet worker');
