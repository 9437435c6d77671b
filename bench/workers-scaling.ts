// The fleet over worker processes: the unsigned PUT rate of the fleet runner (PUT mode, put-fleet.ts) in 1 worker
// process and in 2, each worker with its share of the connections, as `wfmck fleet --workers` shares a fleet. The
// devices onboard at the reference WFM; their PUTs go to a bare node:https server (wfm-child.ts `bare`), the
// cheapest target there is, so that the client is what is measured. On 2 cores the bare server shares them with the
// workers: derived-figures.ts sets the measured scaling beside what the CPU per request allows on 2 cores and on 16.
import { forkInStep, sharesOf, sum } from './in-step.ts';
import type { PutWorkerReport, PutWorkerStart } from './put-worker.ts';
import { UNSIGNED } from './request-rate.ts';
import { round } from './targets.ts';
import { startWfmProcess, type BenchPki, type WfmProcess } from './wfm-process.ts';

export interface WorkersScalingSettings {
  /** Connections in all, split over the workers. */
  connections: number;
  seconds: number;
  /** Rounds of each worker count, their order alternating. */
  rounds: number;
  warmupSeconds: number;
}

export interface WorkersRun {
  workers: number;
  requestsPerSecond: number;
  ok: number;
  failed: number;
  seconds: number;
  /** The workers' CPU (summed) per answered request. */
  clientCpuUsPerRequest: number;
  /** The bare server's CPU per answered request. */
  serverCpuUsPerRequest: number;
}

export interface WorkersScalingMeasurement {
  settings: WorkersScalingSettings;
  oneWorker: WorkersRun;
  twoWorkers: WorkersRun;
}

export async function measureWorkersScaling(pki: BenchPki, s: WorkersScalingSettings): Promise<WorkersScalingMeasurement> {
  const wfm = await startWfmProcess(pki, UNSIGNED);
  const bare = await startWfmProcess(pki, UNSIGNED, { bare: true }).catch(async (err) => {
    await wfm.close();
    throw err;
  });
  try {
    const totals = new Map<
      number,
      Omit<WorkersRun, 'requestsPerSecond' | 'clientCpuUsPerRequest' | 'serverCpuUsPerRequest'> & { clientMs: number; serverMs: number }
    >();
    for (let r = 0; r < s.rounds; r++)
      for (const workers of r % 2 === 0 ? [1, 2] : [2, 1]) {
        const one = await runWorkers(pki, wfm, bare, s, workers);
        const t = totals.get(workers) ?? { workers, ok: 0, failed: 0, seconds: 0, clientMs: 0, serverMs: 0 };
        totals.set(workers, {
          workers,
          ok: t.ok + one.ok,
          failed: t.failed + one.failed,
          seconds: t.seconds + one.seconds,
          clientMs: t.clientMs + one.clientMs,
          serverMs: t.serverMs + one.serverMs,
        });
      }
    const result = (workers: number): WorkersRun => {
      const t = totals.get(workers)!;
      const perRequest = (ms: number) => (t.ok > 0 ? round((ms * 1000) / t.ok, 1) : 0);
      return {
        workers,
        requestsPerSecond: t.seconds > 0 ? round(t.ok / t.seconds) : 0,
        ok: t.ok,
        failed: t.failed,
        seconds: round(t.seconds, 2),
        clientCpuUsPerRequest: perRequest(t.clientMs),
        serverCpuUsPerRequest: perRequest(t.serverMs),
      };
    };
    return { settings: s, oneWorker: result(1), twoWorkers: result(2) };
  } finally {
    await Promise.all([wfm.close(), bare.close()]);
  }
}

/** One timed window of `workers` processes together, against the bare server. */
async function runWorkers(pki: BenchPki, wfm: WfmProcess, bare: WfmProcess, s: WorkersScalingSettings, workers: number) {
  const group = forkInStep<PutWorkerReport>(new URL('./put-worker.ts', import.meta.url), workers, 'put worker');
  try {
    const shares = sharesOf(s.connections, workers);
    group.children.forEach((c, worker) =>
      c.send({
        worker,
        wfm: wfm.url,
        putUrl: bare.url,
        caPem: pki.root.certPem,
        deviceCa: { certPem: pki.deviceCa.certPem, keyPem: pki.deviceCa.keyPem },
        profile: UNSIGNED,
        connections: shares[worker]!,
        warmupMs: s.warmupSeconds * 1000,
        durationMs: s.seconds * 1000,
      } satisfies PutWorkerStart),
    );
    await group.all('warm');
    const server0 = await bare.cpu();
    const measured = await group.step('measure', 'measured');
    const server1 = await bare.cpu();
    await group.exited();
    return {
      ok: sum(measured.map((m) => m.ok)),
      failed: sum(measured.map((m) => m.failed)),
      seconds: Math.max(...measured.map((m) => m.seconds)),
      clientMs: sum(measured.map((m) => m.cpuMs)),
      serverMs: (server1.user - server0.user + server1.system - server0.system) / 1000,
    };
  } finally {
    group.kill();
  }
}
