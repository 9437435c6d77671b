// The harness's child processes: one `wfmck run` per job in its own process group, Playwright's listing of every
// checked requirement, and the signals that stop them.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { playwrightNodeArgs } from '../../run/processes/playwright-launch.ts';
import type { FaultEntry } from '../catalog.ts';
import { checkedRequirements, listingErrors, type PlaywrightListing } from './checked.ts';
import type { RunOutcome, RunReport } from './judge.ts';
import { runArgs, type RunSpec } from './plan.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'wfmck.mjs');
/** A child that outlives this has hung: Playwright's own timeouts (60 s a test) should end any run long before. */
const RUN_TIMEOUT_MS = 30 * 60_000;

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

export interface Stop {
  caught: NodeJS.Signals | undefined;
  children: Set<ChildProcess>;
  dispose(): void;
}

/** SIGINT/SIGTERM: no new run starts, and each running child gets the signal once (it stops its services itself). */
export function catchSignals(): Stop {
  const state: Stop = {
    caught: undefined,
    children: new Set(),
    dispose: () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
  function on(signal: NodeJS.Signals): void {
    state.caught ??= signal;
    for (const c of state.children) c.kill(signal);
  }
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  return state;
}

/** One `wfmck run` in its own process group (a terminal's Ctrl-C reaches only this harness, which forwards it once). */
export async function runOne(job: Job, stop: Stop): Promise<Done> {
  const started = Date.now();
  await rm(job.spec.out, { recursive: true, force: true });
  await mkdir(job.spec.out, { recursive: true });
  const log = createWriteStream(join(job.spec.out, 'wfmck-run.log'));
  const child = spawn(process.execPath, [bin, ...runArgs(job.spec)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  stop.children.add(child);
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const timer = setTimeout(() => child.kill('SIGTERM'), RUN_TIMEOUT_MS);
  const code = await new Promise<number | null>((res) => {
    child.once('error', () => res(null));
    child.once('close', (c) => res(c));
  });
  clearTimeout(timer);
  stop.children.delete(child);
  await new Promise<void>((res) => log.end(res));
  const durationMs = Date.now() - started;
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

/** Every requirement a suite test names, from Playwright's listing (no test runs); its failure is a harness problem. */
export async function listChecks(out: string): Promise<{ checked: string[]; problems: string[] }> {
  const env: NodeJS.ProcessEnv = { ...process.env, WFMCK_OUT: out, WFMCK_LIST_ALL: '1' };
  delete env.WFMCK_CONTEXT;
  const child = spawn(
    process.execPath,
    [...playwrightNodeArgs(), 'test', '--list', '--reporter=json', '--config', join(root, 'playwright.config.ts')],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString('utf8')));
  await new Promise<void>((res) => child.once('close', () => res()));
  try {
    const listing = JSON.parse(text) as PlaywrightListing;
    return { checked: checkedRequirements(listing), problems: listingErrors(listing) };
  } catch {
    return { checked: [], problems: ['suite listing: `playwright test --list` printed no JSON; unprovenRequirements is empty'] };
  }
}
