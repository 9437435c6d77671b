// fleet-summary.json: what was asked (spec echo, seed, shard), what happened (totals, latency, unexpected answers
// with evidence), when, and whether the run was interrupted. Written even after Ctrl-C.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FleetResult } from './runner.ts';
import { formatShard } from './spec.ts';
import { judgeThresholds, type ThresholdResult } from './thresholds.ts';

export const SUMMARY_FILE = 'fleet-summary.json';

export interface FleetSummary {
  kind: 'wfmck-fleet-summary';
  version: 1;
  target: { wfm: string };
  spec: FleetResult['spec'];
  seed: number;
  shard: string;
  expected: FleetResult['layout'];
  totals: Omit<FleetResult['totals'], 'latency' | 'unexpected' | 'unexpectedNotListed'>;
  latency: FleetResult['totals']['latency'];
  unexpected: FleetResult['totals']['unexpected'];
  unexpectedNotListed: number;
  throughput: { onboardedPerSecond: number; requestsPerSecond: number };
  startedAt: string;
  endedAt: string;
  wallMs: number;
  startPhaseMs: number;
  peakRssBytes: number;
  /** CPU time in ms (user + system): the fleet's process, and the embedded services' own process when they were the target. */
  cpu: { fleetMs: number; embeddedServicesMs?: number };
  /** The embedded services' process's peak RSS, when they were the target. */
  embeddedServicesPeakRssBytes?: number;
  interrupted: boolean;
  /** The fleet's own verdict: every device onboarded and reported, nothing unexpected, no deployment failed. */
  ranClean: boolean;
  /** Each threshold of the spec, judged on this summary's figures. */
  thresholds: ThresholdResult[];
  /** ranClean and every threshold held. */
  passed: boolean;
}

export function fleetSummary(
  result: FleetResult,
  target: { wfm: string },
  embeddedServices?: { cpuMs: number; peakRssBytes: number },
): FleetSummary {
  const { latency, unexpected, unexpectedNotListed, ...totals } = result.totals;
  const perSecond = (n: number, ms: number) => (ms > 0 ? Math.round((n * 10_000) / ms) / 10 : 0);
  return {
    kind: 'wfmck-fleet-summary',
    version: 1,
    target: { wfm: target.wfm },
    spec: result.spec,
    seed: result.spec.seed,
    shard: formatShard(result.spec.shard),
    expected: result.layout,
    totals,
    latency,
    unexpected,
    unexpectedNotListed,
    throughput: {
      onboardedPerSecond: perSecond(totals.clients.onboarded, result.startPhaseMs),
      requestsPerSecond: perSecond(totals.requests.total, result.wallMs),
    },
    startedAt: result.startedAt,
    endedAt: result.endedAt,
    wallMs: result.wallMs,
    startPhaseMs: result.startPhaseMs,
    peakRssBytes: result.peakRssBytes,
    cpu: { fleetMs: result.cpuMs, ...(embeddedServices && { embeddedServicesMs: embeddedServices.cpuMs }) },
    ...(embeddedServices && { embeddedServicesPeakRssBytes: embeddedServices.peakRssBytes }),
    interrupted: result.interrupted,
    ...verdict(result.passed, result.spec.thresholds, { latency, requests: totals.requests }),
  };
}

/** The fleet's own verdict with its thresholds judged on `figures` (a shard's, or the merged ones). */
export function verdict(
  ranClean: boolean,
  thresholds: readonly string[] | undefined,
  figures: Parameters<typeof judgeThresholds>[1],
): Pick<FleetSummary, 'ranClean' | 'thresholds' | 'passed'> {
  const judged = judgeThresholds(thresholds ?? [], figures);
  return { ranClean, thresholds: judged, passed: ranClean && judged.every((t) => t.ok) };
}

/** Writes the summary into `dir` (created if needed) and returns the file's path. */
export async function writeSummary(dir: string, summary: FleetSummary): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, SUMMARY_FILE);
  await writeFile(file, JSON.stringify(summary, null, 2) + '\n');
  return file;
}
