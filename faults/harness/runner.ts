// The catch-rate harness: each selected fault switched on in the embedded default, the suites that check its
// requirements run against it (`wfmck run` in a child process), plus one clean control per edition and persona; then
// faults.json and the table. `wfmck faults` (cli/faults.ts) parses the options and calls `proveFaults`.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Edition } from '../../spec/profile.ts';
import { faultCatalog, type FaultEntry } from '../catalog.ts';
import { catchSignals, signalExitCode, type Signals } from '../../run/processes/signals.ts';
import { listChecks, type Done, type Job } from './child-runs.ts';
import { suiteListing } from './listing.ts';
import { batched, single, type Unit } from './batches.ts';
import { buildFaultsReport, cleanResult, exitCodeOf, faultResult, type FaultsReport } from './faults-json.ts';
import { judgeRun } from './judge.ts';
import { editionOf, personaOf, repeatSeed, runDirName } from './plan.ts';
import { unprovenRequirements } from '../../reports/fault-proof.ts';
import { faultsTable, notes, seconds, summaryLine } from './table.ts';

export interface HarnessOptions {
  faults: readonly FaultEntry[];
  /** Fewer faults than the whole catalog: the clean control runs only their tests (unless `full`). */
  subset: boolean;
  repeat: number;
  concurrency: number;
  /** Faults per `wfmck run` (one Playwright start-up): 1 runs each alone. */
  batch: number;
  full: boolean;
  seed: number;
  out: string;
}

/** The clean control a fault's runs are compared with: its edition and persona. */
function controlOf(f: FaultEntry): string {
  return `${editionOf(f)}/${personaOf(f) ?? ''}`;
}

/** Runs every job, writes faults.json and prints the table; answers the exit code (130/143 when interrupted). */
export async function proveFaults(opts: HarnessOptions, defaultOut: boolean): Promise<number> {
  const startedAt = new Date().toISOString();
  const cleanScope = opts.full || !opts.subset ? 'all' : 'selected';
  say(
    `${opts.faults.length} fault${opts.faults.length === 1 ? '' : 's'}${opts.full ? ' (whole suite each)' : ''}, repeat ${opts.repeat}, concurrency ${opts.concurrency}, batches of ${opts.batch}, seed ${opts.seed}; out ${opts.out}`,
  );
  await mkdir(opts.out, { recursive: true });
  const jobs = plannedJobs(opts, cleanScope);
  // Every suite's checks (no test runs): the checks no fault proves, and the files each fault of a batch loads.
  const listing = suiteListing(join(opts.out, 'listing'));
  // The clean controls alone (first: the longest), the faults in batches: the kit's own client's first, whose checks
  // wait on the client (the longest batches), so two slots do not end on them one after the other.
  const units = [
    ...jobs.filter((j) => !j.fault).map(single),
    ...batched(
      [...jobs.filter((j) => j.fault?.service === 'client'), ...jobs.filter((j) => j.fault && j.fault.service !== 'client')],
      opts.batch,
      opts.out,
      listing,
    ),
  ];
  const stop = catchSignals();
  let done: Done[];
  try {
    // In plan order, whatever order they ended in (a repeated fault's runs stay in repeat order).
    done = (await pool(units, jobs.length, opts.concurrency, stop)).sort((a, b) => jobs.indexOf(a.job) - jobs.indexOf(b.job));
  } finally {
    stop.dispose();
  }
  if (stop.caught) {
    say(`interrupted (${stop.caught}); faults.json not written`);
    return signalExitCode(stop.caught);
  }
  const { checked, problems } = listChecks(await listing);
  const report = buildFaultsReport({
    startedAt,
    endedAt: new Date().toISOString(),
    seed: opts.seed,
    repeat: opts.repeat,
    full: opts.full,
    faults: opts.faults.map((f) =>
      faultResult(
        f,
        done.filter((d) => d.job.fault === f).map((d) => d.outcome!),
      ),
    ),
    clean: cleanResult(
      cleanScope,
      done.filter((d) => d.job.fault === undefined),
    ),
    unprovenRequirements: unprovenRequirements(checked, faultCatalog()),
    problems,
  });
  await writeReport(report, opts, defaultOut);
  process.stdout.write(`\n${faultsTable(report)}\n${notes(report)}${summaryLine(report)}`);
  return exitCodeOf(report);
}

function plannedJobs(opts: HarnessOptions, cleanScope: 'all' | 'selected'): Job[] {
  const controls = [...new Set(opts.faults.map(controlOf))];
  const jobs: Job[] = [];
  for (let k = 1; k <= opts.repeat; k++) {
    const seed = repeatSeed(opts.seed, k);
    const sub = (name: string) => (opts.repeat === 1 ? join(opts.out, name) : join(opts.out, name, String(k)));
    // One clean control per edition and persona the selected faults run in: the clean services (and the kit's own
    // client) fail nothing in any of them.
    for (const key of controls) {
      const [edition, persona] = key.split('/') as [Edition, 'device' | ''];
      const requirements = [...new Set(opts.faults.filter((f) => controlOf(f) === key).flatMap((f) => f.breaks))];
      const name = ['clean', ...(edition === 'seed' ? [] : [edition]), ...(persona ? [persona] : [])].join('-');
      jobs.push({
        label: `${name}${opts.repeat > 1 ? ` #${k}` : ''}`,
        spec: { out: sub(name), seed, edition, ...(persona && { persona }), ...(cleanScope === 'selected' && { requirements }) },
      });
    }
    for (const f of opts.faults) {
      const persona = personaOf(f);
      jobs.push({
        label: `${f.id}${opts.repeat > 1 ? ` #${k}` : ''}`,
        fault: f,
        spec: {
          fault: f.id,
          out: sub(runDirName(f.id)),
          seed,
          edition: editionOf(f),
          ...(persona && { persona }),
          ...(!opts.full && { requirements: f.breaks }),
        },
      });
    }
  }
  return jobs;
}

async function writeReport(report: FaultsReport, opts: HarnessOptions, defaultOut: boolean): Promise<void> {
  const file = join(opts.out, 'faults.json');
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  // The issue names reports/out/faults.json: only a run of the whole catalog into the default folder replaces it.
  if (defaultOut && !opts.subset) await copyFile(file, join(dirname(opts.out), 'faults.json'));
  say(`wrote ${file}`);
}

async function pool(units: readonly Unit[], total: number, concurrency: number, stop: Signals): Promise<Done[]> {
  const done: Done[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < units.length && !stop.caught) {
      const unit = units[next++]!;
      // A batch's faults end together: say when one starts, so a long run shows it is moving.
      if (unit.jobs.length > 1) say(`${unit.label}: started`);
      for (const d of await unit.run(stop)) {
        const job = d.job;
        if (job.fault)
          d.outcome = judgeRun(job.fault.breaks, d.report, {
            durationMs: d.durationMs,
            seed: job.spec.seed,
            ...(d.error !== undefined && { error: d.error }),
          });
        done.push(d);
        const verdict = job.fault
          ? d.outcome!.caught
            ? 'caught'
            : `MISSED (${d.outcome!.reason})`
          : d.report
            ? 'clean run done'
            : `clean run failed (${d.error})`;
        say(`[${done.length}/${total}] ${job.label}: ${verdict} in ${seconds(d.durationMs)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, units.length) }, worker));
  return done;
}

function say(line: string): void {
  process.stdout.write(`wfmck faults: ${line}\n`);
}
