// The harness's child processes: one `wfmck run` per job in its own process group, Playwright's listing of every
// checked requirement.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Signals } from '../../run/processes/signals.ts';
import type { FaultEntry } from '../catalog.ts';
import { checkedRequirements, listingErrors, type PlaywrightListing } from './checked.ts';
import type { RunOutcome, RunReport } from './judge.ts';
import { runArgs, type RunSpec } from './plan.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'wfmck.mjs');
/** A child that outlives this has hung: Playwright's own timeouts (60 s a test) should end any run long before. */
const RUN_TIMEOUT_MS = 30 * 60_000;
/** Each further fault of a batch: a selected fault's run takes seconds, a whole suite (--full) a few minutes. */
const PER_FAULT_MS = 5 * 60_000;

export interface Job {
  label: string;
  fault?: FaultEntry;
  spec: RunSpec;
}

export interface Done {
  job: Job;
  report?: RunReport;
  durationMs: number;
  error?: string;
  outcome?: RunOutcome;
}

/** One `wfmck run` in its own process group (a terminal's Ctrl-C reaches only this harness, which forwards it once). */
export async function runOne(job: Job, stop: Signals): Promise<Done> {
  await rm(job.spec.out, { recursive: true, force: true });
  await mkdir(job.spec.out, { recursive: true });
  const { code, durationMs } = await runChild(runArgs(job.spec), join(job.spec.out, 'wfmck-run.log'), stop);
  try {
    return { job, durationMs, report: JSON.parse(await readFile(join(job.spec.out, 'conformance.json'), 'utf8')) as RunReport };
  } catch {
    return {
      job,
      durationMs,
      error: `wfmck run exited ${code ?? 'by a signal'} without a conformance.json; see ${join(job.spec.out, 'wfmck-run.log')}`,
    };
  }
}

/** A `wfmck run` child, its output in `logFile`; `runs` is how many faults it serves (its time limit grows with them). */
export async function runChild(
  args: string[],
  logFile: string,
  stop: Signals,
  runs = 1,
): Promise<{ code: number | null; durationMs: number }> {
  const started = Date.now();
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  stop.started(child);
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const timer = setTimeout(() => child.kill('SIGTERM'), RUN_TIMEOUT_MS + (runs - 1) * PER_FAULT_MS);
  const code = await new Promise<number | null>((res) => {
    child.once('error', () => res(null));
    child.once('close', (c) => res(c));
  });
  clearTimeout(timer);
  stop.children.delete(child);
  await new Promise<void>((res) => log.end(res));
  return { code, durationMs: Date.now() - started };
}

/** Every requirement a suite test names, from Playwright's listing (no test runs); its failure is a harness problem. */
export function listChecks(listing: PlaywrightListing | undefined): { checked: string[]; problems: string[] } {
  if (listing === undefined)
    return { checked: [], problems: ['suite listing: `playwright test --list` printed no JSON; unprovenRequirements is empty'] };
  return { checked: checkedRequirements(listing), problems: listingErrors(listing) };
}
