// A hook that fails again and again is one broken hook, not a string of findings: every check that needs it would end
// `error` after its timeout, one by one, for minutes. Both Playwright workers note each hook failure in the run's
// output folder; once one hook has failed HOOK_FAILURE_LIMIT times the run stops (unless --keep-going): the checks
// not yet run are skipped as interrupted, naming the hook and its first line of stderr.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { readJsonLines } from './json-lines.ts';
import { join } from 'node:path';

/** How many failures of one hook stop the run (the first could be a blip; three of the same hook are a wiring fault). */
export const HOOK_FAILURE_LIMIT = 3;

const FAILURES_FILE = 'hook-failures.jsonl';
const STOP_FILE = 'run-stopped.json';

export interface HookFailure {
  hook: string;
  /** Why it failed, in the kit's words ("exited with code 1"). */
  reason: string;
  /** The first non-empty line the hook wrote on stderr (redacted), the line an operator needs to fix it. */
  stderr: string;
}

/** Why the run stopped early, as its output folder keeps it. */
export interface RunStop {
  cause: 'hook';
  hook: string;
  message: string;
}

/** The first non-empty line of a hook's stderr. */
export function firstStderrLine(stderr: string): string {
  return (
    stderr
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? ''
  );
}

/** Every failure noted so far in `outDir` (a torn line, from a worker killed mid-write, is left out). */
export function hookFailures(outDir: string): HookFailure[] {
  return readJsonLines<HookFailure>(join(outDir, FAILURES_FILE));
}

/**
 * Notes a failure (one short line appended: atomic between the two workers) and, at the limit, stops the run unless
 * `keepGoing`. Answers the stop when this failure caused it.
 */
export function noteHookFailure(outDir: string, failure: HookFailure, keepGoing: boolean): RunStop | undefined {
  appendFileSync(join(outDir, FAILURES_FILE), `${JSON.stringify(failure)}\n`);
  const count = hookFailures(outDir).filter((f) => f.hook === failure.hook).length;
  if (keepGoing || count < HOOK_FAILURE_LIMIT || runStop(outDir) !== undefined) return undefined;
  const stop: RunStop = { cause: 'hook', hook: failure.hook, message: hookFailureLine(failure.hook, count, failure) };
  writeFileSync(join(outDir, STOP_FILE), `${JSON.stringify(stop)}\n`);
  return stop;
}

/** "hook assignDeployment failed 3 times: <its first stderr line>" */
export function hookFailureLine(hook: string, count: number, first: Pick<HookFailure, 'reason' | 'stderr'>): string {
  const why = first.stderr ? `${first.reason}: ${first.stderr}` : first.reason;
  return `hook ${hook} failed ${count} time${count === 1 ? '' : 's'}: ${why}`;
}

/** Why the run was stopped early, when it was. */
export function runStop(outDir: string): RunStop | undefined {
  try {
    return JSON.parse(readFileSync(join(outDir, STOP_FILE), 'utf8')) as RunStop;
  } catch {
    return undefined;
  }
}
