// `wfmck faults`: the catch rate. Each fault of reference/faults/ switched on in the embedded default, the suites that
// check its requirements run against it (`wfmck run` in a child process), and the run must fail every one of them.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { randomInt } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveFaults } from '../reference/faults/catalog.ts';
import { checkedRequirements, listingErrors, type PlaywrightListing } from '../reports/faults/checked.ts';
import { buildFaultsReport, cleanResult, exitCodeOf, faultResult, type FaultsReport } from '../reports/faults/faults-json.ts';
import { judgeRun, type RunOutcome, type RunReport } from '../reports/faults/judge.ts';
import { editionOf, personaOf, quickSubset, repeatSeed, runArgs, runDirName, type FaultEntry, type RunSpec } from '../reports/faults/plan.ts';
import { CLIENT_FAULT_ENTRIES } from '../simulators/faults/client-faults.ts';
import { ALL_FAULTS } from '../reports/faults/all.ts';
import type { Edition } from '../spec/profile.ts';

/** The clean control a fault's runs are compared with: its edition and persona. */
function controlOf(f: FaultEntry): string {
  return `${editionOf(f)}/${personaOf(f) ?? ''}`;
}
import { unprovenRequirements } from '../reports/faults/proof.ts';
import { faultList, faultsTable, notes, seconds, summaryLine } from '../reports/faults/table.ts';
import { playwrightCli } from './playwright.ts';
import { EXIT_OK, UsageError } from '../run/usage.ts';
import { path, positiveInt, text } from '../run/args.ts';
import { helpText, parseCommand, type CommandSpec } from '../run/options.ts';
import { OUT, SEED } from '../run/option-sets.ts';

const DEFAULT_CONCURRENCY = 2;

export const SPEC: CommandSpec = {
  name: 'faults',
  usage: ['[options]'],
  about: `For every fault of reference/faults/, runs the suites that check the requirements it breaks against the embedded
reference services with that fault switched on (\`wfmck run --fault ID --grep ...\`), and checks the run fails every
one of them; runs the clean services once and checks nothing fails. Writes faults.json and prints a table.
Exit 0 iff every fault is caught, every time, and the clean services fail nothing; 1 otherwise; 2 for a usage error.`,
  groups: [
    {
      options: [
        { flag: 'list', doc: 'print every fault (id, service, breaks, description) and exit' },
        { flag: 'only', value: 'ID[,ID]', doc: 'only these faults (the clean control then runs only their tests)', parse: (raw) => text(raw).split(',').map((s) => s.trim()).filter(Boolean).map(resolveAny) },
        { flag: 'quick', doc: 'the first fault of each service (the subset `npm test` runs)' },
        { flag: 'repeat', value: 'N', doc: 'run each fault (and the clean control) N times: any disagreement is flaky, and flaky fails', parse: positiveInt },
        { flag: 'concurrency', value: 'N', doc: `runs at once (default ${DEFAULT_CONCURRENCY})`, parse: positiveInt },
        { flag: 'full', doc: 'run the whole suite for each fault (slow; shows collateral failures)' },
        { ...SEED, doc: 'seed of the first repeat (default random, printed); repeat k uses N+k-1' },
        { ...OUT, doc: 'output folder (default reports/out/faults; the whole set is also copied to reports/out/faults.json)', parse: path },
      ],
    },
  ],
};

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'wfmck.mjs');
const DEFAULT_OUT = join(root, 'reports', 'out', 'faults');
/** A child that outlives this has hung: Playwright's own timeouts (60 s a test) should end any run long before. */
const RUN_TIMEOUT_MS = 30 * 60_000;

interface Options {
  faults: FaultEntry[];
  subset: boolean;
  repeat: number;
  concurrency: number;
  full: boolean;
  seed: number;
  out: string;
}

export async function run(argv: string[]): Promise<number> {
  const { help, values: checked } = parseCommand(SPEC, argv);
  if (help) return void process.stdout.write(helpText(SPEC)), EXIT_OK;
  const values = checked as { list?: true; only?: FaultEntry[]; quick?: true; repeat?: number; concurrency?: number; full?: true; seed?: number; out?: string };
  if (values.list) return void process.stdout.write(faultList(ALL_FAULTS)), EXIT_OK;
  if (values.only !== undefined && values.quick) throw new UsageError('--only: --only and --quick each choose the faults; give one');
  const faults = [...new Set(values.only ?? (values.quick ? quickSubset(ALL_FAULTS) : ALL_FAULTS))];
  if (faults.length === 0) throw new UsageError('--only: no fault selected');
  const opts: Options = {
    faults,
    subset: faults.length < ALL_FAULTS.length,
    repeat: values.repeat ?? 1,
    concurrency: values.concurrency ?? DEFAULT_CONCURRENCY,
    full: values.full === true,
    seed: values.seed ?? randomInt(2 ** 31 - 1),
    out: values.out ?? DEFAULT_OUT,
  };
  return harness(opts, values.out === undefined);
}

async function harness(opts: Options, defaultOut: boolean): Promise<number> {
  const startedAt = new Date().toISOString();
  const cleanScope = opts.full || !opts.subset ? 'all' : 'selected';
  const controls = [...new Set(opts.faults.map(controlOf))];
  say(`${opts.faults.length} fault${opts.faults.length === 1 ? '' : 's'}${opts.full ? ' (whole suite each)' : ''}, repeat ${opts.repeat}, concurrency ${opts.concurrency}, seed ${opts.seed}; out ${opts.out}`);
  await mkdir(opts.out, { recursive: true });
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
      jobs.push({ label: `${name}${opts.repeat > 1 ? ` #${k}` : ''}`, spec: { out: sub(name), seed, edition, ...(persona && { persona }), ...(cleanScope === 'selected' && { requirements }) } });
    }
    for (const f of opts.faults) {
      const persona = personaOf(f);
      jobs.push({ label: `${f.id}${opts.repeat > 1 ? ` #${k}` : ''}`, fault: f, spec: { fault: f.id, out: sub(runDirName(f.id)), seed, edition: editionOf(f), ...(persona && { persona }), ...(!opts.full && { requirements: f.breaks }) } });
    }
  }
  const stop = catchSignals();
  const listing = listChecks(join(opts.out, 'listing'));
  let done: Done[];
  try {
    done = await pool(jobs, opts.concurrency, stop);
  } finally {
    stop.dispose();
  }
  if (stop.caught) {
    say(`interrupted (${stop.caught}); faults.json not written`);
    return stop.caught === 'SIGTERM' ? 143 : 130;
  }
  const { checked, problems } = await listing;
  const report = buildFaultsReport({
    startedAt, endedAt: new Date().toISOString(), seed: opts.seed, repeat: opts.repeat, full: opts.full,
    faults: opts.faults.map((f) => faultResult(f, done.filter((d) => d.job.fault === f).map((d) => d.outcome!))),
    clean: cleanResult(cleanScope, done.filter((d) => d.job.fault === undefined)),
    unprovenRequirements: unprovenRequirements(checked, ALL_FAULTS),
    problems,
  });
  await writeReport(report, opts, defaultOut);
  process.stdout.write(`\n${faultsTable(report)}\n${notes(report)}${summaryLine(report)}`);
  return exitCodeOf(report);
}

async function writeReport(report: FaultsReport, opts: Options, defaultOut: boolean): Promise<void> {
  const file = join(opts.out, 'faults.json');
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  // The issue names reports/out/faults.json: only a run of the whole catalog into the default folder replaces it.
  if (defaultOut && !opts.subset) await copyFile(file, join(dirname(opts.out), 'faults.json'));
  say(`wrote ${file}`);
}

interface Job {
  label: string;
  fault?: FaultEntry;
  spec: RunSpec;
}

interface Done {
  job: Job;
  report?: RunReport;
  durationMs: number;
  error?: string;
  outcome?: RunOutcome;
}

interface Stop {
  caught: NodeJS.Signals | undefined;
  children: Set<ChildProcess>;
  dispose(): void;
}

/** SIGINT/SIGTERM: no new run starts, and each running child gets the signal once (it stops its services itself). */
function catchSignals(): Stop {
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

async function pool(jobs: readonly Job[], concurrency: number, stop: Stop): Promise<Done[]> {
  const done: Done[] = new Array(jobs.length);
  let next = 0;
  let finished = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length && !stop.caught) {
      const index = next++;
      const job = jobs[index]!;
      const d = await runOne(job, stop);
      if (job.fault) d.outcome = judgeRun(job.fault.breaks, d.report, { durationMs: d.durationMs, seed: job.spec.seed, ...(d.error !== undefined && { error: d.error }) });
      done[index] = d;
      finished += 1;
      const verdict = job.fault ? (d.outcome!.caught ? 'caught' : `MISSED (${d.outcome!.reason})`) : d.report ? 'clean run done' : `clean run failed (${d.error})`;
      say(`[${finished}/${jobs.length}] ${job.label}: ${verdict} in ${seconds(d.durationMs)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  return done;
}

/** One `wfmck run` in its own process group (a terminal's Ctrl-C reaches only this harness, which forwards it once). */
async function runOne(job: Job, stop: Stop): Promise<Done> {
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
    return { job, durationMs, error: `wfmck run exited ${code ?? 'by a signal'} without a conformance.json; see ${join(job.spec.out, 'wfmck-run.log')}` };
  }
}

/** Every requirement a suite test names, from Playwright's listing (no test runs); its failure is a harness problem. */
async function listChecks(out: string): Promise<{ checked: string[]; problems: string[] }> {
  const env: NodeJS.ProcessEnv = { ...process.env, WFMCK_OUT: out, WFMCK_LIST_ALL: '1' };
  delete env.WFMCK_CONTEXT;
  const child = spawn(process.execPath, [playwrightCli(), 'test', '--list', '--reporter=json', '--config', join(root, 'playwright.config.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'ignore'] });
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

function say(line: string): void {
  process.stdout.write(`wfmck faults: ${line}\n`);
}

function resolveAny(id: string): FaultEntry {
  return CLIENT_FAULT_ENTRIES.find((f) => f.id === id) ?? resolveFaults([id])[0]!;
}
