// Builders for the harness's pure inputs: requirements as conformance.json has them, runs as the judge returns them.
import type { JudgedRequirement, RunOutcome } from '../../faults/harness/judge.ts';
import type { FaultEntry } from '../../faults/catalog.ts';
import type { TestStatus } from '../../reports/matrix.ts';

/** A requirement with one test of the matching status (a warn comes from a failed test) unless tests are given. */
export function req(id: string, status: JudgedRequirement['status'], tests?: TestStatus[]): JudgedRequirement {
  const statuses =
    tests ?? (status === 'not-covered' || status === 'untestable' ? [] : [status === 'warn' ? 'fail' : (status as TestStatus)]);
  return { id, status, tests: statuses.map((s) => ({ status: s })) };
}

export function outcome(caught: boolean, failedRequirements: string[], over: Partial<RunOutcome> = {}): RunOutcome {
  return {
    caught,
    failedRequirements,
    blockedRequirements: [],
    durationMs: 1000,
    seed: 1,
    ...(caught ? {} : { reason: 'X: pass' }),
    ...over,
  };
}

export function fault(id: string, service: FaultEntry['service'] = 'wfm', breaks: string[] = [id.split(':')[0]!]): FaultEntry {
  return { id, service, breaks, description: `breaks ${breaks.join(', ')}` };
}
