// Did a faulted run catch its fault: every requirement the fault breaks judged failing. Pure (conformance.json in).
import type { RequirementResult, TestEntry } from '../../reports/matrix.ts';

/** What the harness reads of a run's conformance.json. */
export interface JudgedRequirement extends Pick<RequirementResult, 'id' | 'status'> {
  tests: Pick<TestEntry, 'status'>[];
}

export interface RunReport {
  requirements: JudgedRequirement[];
  problems?: string[];
}

/** One run of one fault (or of the clean services). */
export interface RunOutcome {
  caught: boolean;
  failedRequirements: string[];
  /** Requirements the run could not judge because a precondition broke (their cause is a failed requirement). */
  blockedRequirements: string[];
  durationMs: number;
  seed: number;
  /** Why it was not caught: each broken requirement that did not fail, with its status, or the run's own error. */
  reason?: string;
}

/**
 * The check failed: status `fail`, or `warn` because the level (SHOULD at default strictness, MAY) weighs a failed
 * test down to a warning, or because a test's errata make the departure it found a warning (a test `warn`: strict
 * fails it). A test that only errs (the kit broke) or is skipped is never a failed check.
 */
export function checkFailed(r: JudgedRequirement): boolean {
  return r.status === 'fail' || (r.status === 'warn' && r.tests.some((t) => t.status === 'fail' || t.status === 'warn'));
}

export function failedRequirements(report: RunReport): string[] {
  return report.requirements
    .filter(checkFailed)
    .map((r) => r.id)
    .sort();
}

export function blockedRequirements(report: RunReport): string[] {
  return report.requirements
    .filter((r) => r.status === 'blocked')
    .map((r) => r.id)
    .sort();
}

/** Requirements the kit could not judge in this run (a test erred): on the clean services these are kit bugs. */
export function erroredRequirements(report: RunReport): string[] {
  return report.requirements
    .filter((r) => r.status === 'error')
    .map((r) => r.id)
    .sort();
}

/** Caught iff every id of `breaks` failed; a missing report (`error` says why) catches nothing. */
export function judgeRun(
  breaks: readonly string[],
  report: RunReport | undefined,
  run: { durationMs: number; seed: number; error?: string },
): RunOutcome {
  const base = { durationMs: run.durationMs, seed: run.seed };
  if (report === undefined)
    return {
      caught: false,
      failedRequirements: [],
      blockedRequirements: [],
      ...base,
      reason: run.error ?? 'the run wrote no conformance.json',
    };
  const failed = failedRequirements(report);
  const blocked = blockedRequirements(report);
  const byId = new Map(report.requirements.map((r) => [r.id, r]));
  const missed = breaks.filter((id) => !failed.includes(id));
  if (missed.length === 0) return { caught: true, failedRequirements: failed, blockedRequirements: blocked, ...base };
  const why = missed.map((id) => {
    const r = byId.get(id);
    if (r === undefined) return `${id}: not in the report`;
    return r.tests.length === 0 ? `${id}: ${r.status} (no test ran)` : `${id}: ${r.status}`;
  });
  const problems = report.problems?.length ? `; kit problems: ${report.problems[0]}` : '';
  return { caught: false, failedRequirements: failed, blockedRequirements: blocked, ...base, reason: why.join(', ') + problems };
}

/** Two runs agree when both caught (or both missed) and failed the same requirements. */
export function sameResult(
  a: Pick<RunOutcome, 'caught' | 'failedRequirements'>,
  b: Pick<RunOutcome, 'caught' | 'failedRequirements'>,
): boolean {
  return a.caught === b.caught && a.failedRequirements.join(' ') === b.failedRequirements.join(' ');
}
