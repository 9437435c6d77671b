// faults.json: for every fault, whether the suites caught it; the clean control; what no fault proves yet. Pure.
import { erroredRequirements, failedRequirements, sameResult, type RunOutcome, type RunReport } from './judge.ts';
import type { FaultEntry } from '../catalog.ts';

export interface FaultResult {
  id: string;
  service: FaultEntry['service'];
  /** The requirement ids the fault breaks (its `breaks`): each must fail for the fault to count as caught. */
  requirements: string[];
  /** Caught in every repeat. */
  caught: boolean;
  /** Union over the repeats of the requirements that failed (with --full, collateral failures show here). */
  failedRequirements: string[];
  /** Union over the repeats of the requirements blocked by a failed one (their setup broke on the fault). */
  blockedRequirements: string[];
  /** The requirements that failed are exactly its `breaks`: one bug reads as its own failures, the rest blocked. */
  exact: boolean;
  /** Time of all its runs: a run of its own, its wall time; in a batch (--batch), the sum of its checks' durations. */
  durationMs: number;
  /** The seed of its first run (`wfmck run --seed`). */
  seed: number;
  reason?: string;
  /** The repeats disagreed: flaky is failure. */
  flaky?: true;
  /** Every run, in order, when --repeat is above 1. */
  repeats?: RunOutcome[];
}

export interface CleanResult {
  /** `all`: the whole suite; `selected`: the tests of the selected faults (--only, --quick). */
  scope: 'all' | 'selected';
  /** Requirements that failed on the clean services in any repeat: false failures. */
  failedRequirements: string[];
  /** Requirements whose tests erred on the clean services: the kit broke, so the control proves nothing for them. */
  erroredRequirements: string[];
  durationMs: number;
  /** Why a clean run has no report. */
  error?: string;
}

export interface FaultsSummary {
  total: number;
  caught: number;
  missed: number;
  falseFailuresOnClean: number;
  flaky: number;
  /** Per service: faults whose failed requirements are exactly their `breaks`, of all its faults. */
  exactness: Record<string, { exact: number; total: number }>;
}

export interface FaultsReport {
  startedAt: string;
  endedAt: string;
  seed: number;
  repeat: number;
  /** True with --full: every fault ran the whole suite. */
  full: boolean;
  faults: FaultResult[];
  clean: CleanResult;
  /** Requirements the suites check that no fault breaks: their checks were never shown to fail. */
  unprovenRequirements: string[];
  /** Problems of the harness itself (a listing that failed): never findings. */
  problems: string[];
  summary: FaultsSummary;
}

function union(lists: readonly string[][]): string[] {
  return [...new Set(lists.flat())].sort();
}

/** One fault's entry from its runs (one per repeat, at least one). */
export function faultResult(fault: FaultEntry, runs: readonly RunOutcome[]): FaultResult {
  if (runs.length === 0) throw new Error(`fault ${fault.id} has no run`);
  const first = runs[0]!;
  const caught = runs.every((r) => r.caught);
  const flaky = runs.some((r) => !sameResult(r, first));
  const reason = runs.find((r) => r.reason !== undefined)?.reason;
  const failedRequirements = union(runs.map((r) => r.failedRequirements));
  return {
    id: fault.id,
    service: fault.service,
    requirements: [...fault.breaks],
    caught,
    failedRequirements,
    blockedRequirements: union(runs.map((r) => r.blockedRequirements ?? [])),
    exact: failedRequirements.join(' ') === [...new Set(fault.breaks)].sort().join(' '),
    durationMs: runs.reduce((n, r) => n + r.durationMs, 0),
    seed: first.seed,
    ...(reason !== undefined && { reason }),
    ...(flaky && { flaky: true as const }),
    ...(runs.length > 1 && { repeats: [...runs] }),
  };
}

/** The clean control from its runs; a run without a report is an error, never a silent pass. */
export function cleanResult(
  scope: CleanResult['scope'],
  runs: readonly { report?: RunReport; durationMs: number; error?: string }[],
): CleanResult {
  const reports = runs.flatMap((r) => r.report ?? []);
  const error =
    runs.find((r) => r.report === undefined)?.error ??
    (runs.some((r) => r.report === undefined) ? 'a clean run wrote no conformance.json' : undefined);
  return {
    scope,
    failedRequirements: union(reports.map(failedRequirements)),
    erroredRequirements: union(reports.map(erroredRequirements)),
    durationMs: runs.reduce((n, r) => n + r.durationMs, 0),
    ...(error !== undefined && { error }),
  };
}

export type FaultsReportInput = Omit<FaultsReport, 'summary' | 'problems'> & { problems?: string[] };

export function buildFaultsReport(input: FaultsReportInput): FaultsReport {
  const caught = input.faults.filter((f) => f.caught).length;
  return {
    ...input,
    problems: input.problems ?? [],
    summary: {
      total: input.faults.length,
      caught,
      missed: input.faults.length - caught,
      falseFailuresOnClean: input.clean.failedRequirements.length,
      flaky: input.faults.filter((f) => f.flaky).length,
      exactness: exactness(input.faults),
    },
  };
}

function exactness(faults: readonly FaultResult[]): FaultsSummary['exactness'] {
  const out: FaultsSummary['exactness'] = {};
  for (const f of faults) {
    const s = (out[f.service] ??= { exact: 0, total: 0 });
    s.total += 1;
    if (f.exact) s.exact += 1;
  }
  return out;
}

/**
 * A fault passes when it is caught, every time, and fails nothing beyond its breaks: a requirement failed beyond them
 * is a verdict the kit got wrong (one bug blamed on a rule the service keeps). With --full every test runs, and what
 * else fails is shown, not judged.
 */
export function faultPassed(f: FaultResult, full = false): boolean {
  return f.caught && !f.flaky && (f.exact || full);
}

/** Exit 0 iff every fault passes (faultPassed) and the clean services fail nothing (and the control itself ran). */
export function exitCodeOf(report: FaultsReport): 0 | 1 {
  const c = report.clean;
  const cleanOk = c.failedRequirements.length === 0 && c.erroredRequirements.length === 0 && c.error === undefined;
  return cleanOk && report.faults.every((f) => faultPassed(f, report.full)) ? 0 : 1;
}
