// Faults in batches: one `wfmck run --fault-batch` serves several faults of one edition, persona and seed, each on its
// own embedded default and judged from its own conformance.json, so the runner and the kit's modules load once per
// batch, not once per fault (most of a fault's run was start-up). A fault its batch left without a report (the batch
// died, or was stopped) runs again alone, as it would without batches.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Signals } from '../../run/processes/signals.ts';
import type { FaultBatchEntry } from '../../run/contract/fault-batch.ts';
import { runChild, runOne, type Done, type Job } from './child-runs.ts';
import { requirementsGrep, runArgs, type RunSpec } from './plan.ts';
import type { RunReport } from './judge.ts';
import { filesSelected, listingErrors, type PlaywrightListing } from './checked.ts';

/** What the pool runs: one job alone, or several faults' jobs in one batch. */
export interface Unit {
  label: string;
  jobs: Job[];
  run(stop: Signals): Promise<Done[]>;
}

/** Each job alone: the clean controls, and every fault when batches are off (size 1). */
export function single(job: Job): Unit {
  return { label: job.label, jobs: [job], run: async (stop) => [await runOne(job, stop)] };
}

/**
 * The fault jobs in batches of at most `size`, each of one edition, persona and seed (what a `wfmck run` fixes), in
 * the order given; `out` holds each batch's own folder (its log and Playwright's report).
 */
export function batched(jobs: readonly Job[], size: number, out: string, listing?: Promise<PlaywrightListing | undefined>): Unit[] {
  if (size <= 1) return jobs.map(single);
  const groups = new Map<string, Job[]>();
  for (const job of jobs) {
    const key = `${job.spec.edition ?? 'seed'}/${job.spec.persona ?? ''}/${job.spec.seed}`;
    groups.set(key, [...(groups.get(key) ?? []), job]);
  }
  const units: Unit[] = [];
  for (const group of groups.values())
    for (let i = 0; i < group.length; i += size) {
      const part = group.slice(i, i + size);
      if (part.length === 1) units.push(single(part[0]!));
      else units.push(batchUnit(part, join(out, 'batches', String(units.filter((u) => u.jobs.length > 1).length + 1)), listing));
    }
  return units;
}

function batchUnit(jobs: Job[], dir: string, listing?: Promise<PlaywrightListing | undefined>): Unit {
  return {
    label: `batch ${basename(dir)} (${jobs.map((j) => j.label).join(', ')})`,
    jobs,
    run: async (stop) => {
      const done = await runBatch(jobs, dir, stop, await listing);
      // Alone again: a fault its batch left without a report (never a batch's problem blamed on the fault).
      for (const [i, d] of done.entries()) if (d.report === undefined && !stop.caught) done[i] = await runOne(jobs[i]!, stop);
      return done;
    },
  };
}

/** The batch's run; each fault's Done from its own conformance.json, its time the sum of its checks' durations. */
async function runBatch(jobs: Job[], dir: string, stop: Signals, listing: PlaywrightListing | undefined): Promise<Done[]> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const entries: FaultBatchEntry[] = jobs.map((j) => {
    const grep = j.spec.requirements !== undefined ? requirementsGrep(j.spec.requirements) : undefined;
    return {
      fault: j.spec.fault!,
      out: j.spec.out,
      ...(grep !== undefined && { grep }),
      // Only the files with its checks: every suite module each fault declares again costs the runner its load.
      ...(grep !== undefined &&
        listing !== undefined &&
        listingErrors(listing).length === 0 && { files: filesSelected(listing, new RegExp(grep)) }),
    };
  });
  const file = join(dir, 'batch.json');
  await writeFile(file, `${JSON.stringify(entries, null, 2)}\n`);
  const spec = jobs[0]!.spec;
  await Promise.all(jobs.map((j) => rm(j.spec.out, { recursive: true, force: true })));
  const { code, durationMs } = await runChild(batchArgs(spec, file, dir), join(dir, 'wfmck-run.log'), stop, jobs.length);
  return Promise.all(
    jobs.map(async (job): Promise<Done> => {
      try {
        const report = JSON.parse(await readFile(join(job.spec.out, 'conformance.json'), 'utf8')) as RunReport & {
          requirements: unknown[];
        };
        return { job, durationMs: checksDuration(report), report };
      } catch {
        return {
          job,
          durationMs,
          error: `the batch's wfmck run exited ${code ?? 'by a signal'} without ${job.spec.fault}'s conformance.json; see ${join(dir, 'wfmck-run.log')}`,
        };
      }
    }),
  );
}

/** As a run of one fault (runArgs: its seed, edition, persona, one worker for selected checks), with the batch file for its fault and grep. */
function batchArgs(spec: RunSpec, file: string, dir: string): string[] {
  const { fault: _fault, requirements, ...shared } = spec;
  const selected = requirements === undefined ? [] : ['--workers', '1'];
  return [...runArgs({ ...shared, out: dir }), '--fault-batch', file, ...selected];
}

/** A fault's share of its batch: the time its own checks took (each test once, though it names several requirements). */
function checksDuration(report: { requirements: unknown[] }): number {
  const seen = new Map<string, number>();
  for (const r of report.requirements as { tests?: { file?: string; line?: number; title?: string; durationMs?: number }[] }[])
    for (const t of r.tests ?? []) seen.set(`${t.file}:${t.line}:${t.title}`, t.durationMs ?? 0);
  return [...seen.values()].reduce((a, b) => a + b, 0);
}
