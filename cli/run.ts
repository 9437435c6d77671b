// `wfmck run`: certify a WFM, its identity role and its registry (or the embedded default) with the Playwright suites.
// The verdict is the requirement report's (conformance.json), not Playwright's exit code: only a failed MUST fails a run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_OPTIONS, configOf, namesTargets, type Config } from '../run/options/config.ts';
import { failedIds, lastRun } from '../run/contract/selection.ts';
import { helpText, parseArgv, type CommandSpec } from '../run/options/options.ts';
import { playwrightNodeArgs } from '../run/processes/playwright-launch.ts';
import type { RunContext } from '../run/contract/context.ts';
import { PERSONAS, observersOf } from '../run/contract/personas.ts';
import { areasFor } from '../run/contract/claims.ts';
import { runSigningKey, signRunReports } from './run-signing-key.ts';
import { REPLAY_FILE } from '../run/options/replay-config.ts';
import { ENVELOPE_FILE } from '../run/contract/context.ts';
import { EXIT_OK, EXIT_USAGE, UsageError } from '../run/options/usage.ts';
import { checkConfiguration, probeTargets } from './preflight.ts';
import { checkHookScript } from './hook-scripts.ts';
import { runStop } from '../run/contract/hook-failures.ts';
import { PLAYWRIGHT_SIGNALS, runPlaywrightProcess } from '../run/processes/playwright-process.ts';
import { catchSignals, signalExitCode, type Signals } from '../run/processes/signals.ts';
import { writeInterruptedReport } from '../reports/write-report.ts';
import { folderWriteProblem } from '../reports/safe-write.ts';
import { shellQuote, startAttendExec, type AttendExecSummary } from '../run/processes/attend-exec.ts';
import { loadNotice } from '../run/contract/load.ts';
import { watchTargets, type Watch } from './outage-watch.ts';
import { OUTAGE_FILE } from '../reports/outage-declared.ts';
import { installPins } from '../protocol/pinned-lookup.ts';
import { installTargets } from '../run/contract/named-targets.ts';
import { verdict } from './run-verdict.ts';

export const SPEC: CommandSpec = {
  name: 'run',
  usage: ['[options]'],
  about: `Runs the conformance suites against a WFM (and its identity role and registry), or with no target against the
embedded reference services, and writes conformance.json, conformance.html, junit.xml and Playwright's report.
Exit 0 when every MUST passes, 1 when any MUST fails, 2 for a usage or configuration error, an unreachable target,
a kit error or a run that judged nothing; 130, 143 or 129 when stopped by SIGINT, SIGTERM or SIGHUP.`,
  groups: [{ title: 'Every setting, by flag, env name and YAML key (precedence: flags > env > YAML > default)', options: RUN_OPTIONS }],
  get after() {
    const areas = PERSONAS.map((p) => `  ${p.padEnd(10)} ${[...new Set(areasFor(observersOf(p)).map((a) => a.name))].join(', ')}`);
    return `Claim areas by persona (claims, --claims; every area when none is named):\n${areas.join('\n')}`;
  },
};

const root = fileURLToPath(new URL('..', import.meta.url));

export async function run(argv: string[]): Promise<number> {
  // One parse of argv: --help, --list and --last-failed are read from it, and the config is built from it once.
  const parsed = parseArgv(argv, RUN_OPTIONS, false);
  if (parsed.help) return (void process.stdout.write(helpText(SPEC)), EXIT_OK);
  const again = parsed.flags.has('last-failed') ? lastFailed() : undefined;
  if (again && 'nothing' in again) return (say(again.nothing), EXIT_OK);
  const config = configOf(parsed, process.env, process.cwd(), { ...(again && { again }) });
  if (parsed.flags.has('list')) return listChecks(config);
  // Persona device: the kit is the WFM, identity role and registry; the client under test comes through startClient.
  if (config.persona === 'device' && namesTargets(config))
    throw new UsageError(
      "--persona: device runs the kit's own services as the WFM your client talks to: name no targets (your client is started by hooks.startClient)",
    );
  checkConfiguration(config);
  // The services' modules load only now: a usage error or --help costs a fraction of a run's start-up.
  if (config.faultBatch !== undefined) {
    const { runFaultBatch } = await import('./run-fault-batch.ts');
    return runFaultBatch({ ...config, faultBatch: config.faultBatch }, root);
  }
  const { prepareRun } = await import('../run/processes/global-setup.ts');
  installPins(config.resolve ?? []);
  warnHookScripts(config);
  // A folder the reports cannot go to (full, read-only, under a file) is known in seconds, not after the run.
  const outProblem = folderWriteProblem(config.out);
  if (outProblem) throw new UsageError(`--out: ${outProblem}`);
  const signingKey = runSigningKey(config);
  // The hosts the user named are the only ones besides loopback this process (and each worker) may contact.
  const remote = installTargets(config.targets);
  if (remote) process.stderr.write(`wfmck run: ${remote}\n`);
  await probeTargets(config);
  // From here on a signal never kills wfmck outright: the embedded services stop and the reporter finishes.
  const signals = catchSignals(PLAYWRIGHT_SIGNALS);
  let code: number | null = null;
  let selfCheck = false;
  try {
    const prepared = await prepareRun(config, { cli: true });
    try {
      say(
        `${namesTargets(config) ? `targets ${namedTargetsLine(config)}` : 'embedded reference services'}; persona ${config.persona}; edition ${config.profile.edition}; strictness ${config.strictness}; seed ${config.seed}; ${config.runs} runs per property; out ${config.out}`,
      );
      const busy = loadNotice(config.timeoutScale);
      if (busy) say(busy);
      if (config.attend) attendBanner(prepared.context, config.attend.exec);
      selfCheck = isSelfCheck(prepared.context);
      if (selfCheck) say(SELF_CHECK);
      const exec =
        config.attend?.exec === undefined ? undefined : startAttendExec({ dir: prepared.context.attend!.dir, command: config.attend.exec });
      let watch: Watch | undefined;
      try {
        if (!signals.caught) {
          const runner = runPlaywright(config, prepared.env, signals);
          // A named target that stops answering stops the run: its report then has one outage, not a finding per check.
          if (namesTargets(config)) watch = watchTargets(config, (o) => (say(`${o.target} ${o.origin} stopped answering`), signals.stop()));
          code = await runner;
        }
      } finally {
        watch?.stop();
        if (exec) say(attendExecLine(await exec.stop()));
      }
      // A runner killed after the grace period (or never started) wrote nothing: the streamed records still tell.
      const stopped = signals.caught ?? (watch?.outage && 'an outage');
      if (stopped && (signals.killed || !existsSync(join(config.out, 'conformance.json')))) {
        try {
          writeInterruptedReport(
            prepared.context,
            `wfmck run got ${stopped}${signals.killed ? ' and Playwright did not stop in time' : ''}`,
          );
        } catch (e) {
          say(`the report was not written: ${(e as Error).message}`);
        }
      }
      rmSync(join(config.out, OUTAGE_FILE), { force: true });
    } finally {
      await prepared.close();
    }
  } finally {
    signals.dispose();
  }
  // Playwright has exited, so the reporter has written every file (an interrupted run's too): sign them now.
  const signed = signingKey && signRunReports(config, signingKey);
  if (signed) say(signed.line);
  if (signals.caught) {
    say(`interrupted (${signals.caught}); the reports hold what ran (interrupted: true)`);
    printPaths(config, replayCommand(config));
    return signalExitCode(signals.caught);
  }
  if (code === null) say('Playwright ended without an exit code');
  const result = await verdict(join(config.out, 'conformance.json'));
  const early = runStop(config.out);
  if (early) say(`stopped early: ${early.message}; the checks after it were not run (--keep-going runs on)`);
  say(config.shard ? `shard ${config.shard.index}/${config.shard.total}, a partial report: ${result.line}` : result.line);
  if (selfCheck) say(SELF_CHECK);
  if (config.shard) say(`join every shard's output with: npx wfmck merge-reports <shard out dirs...> --out DIR`);
  printPaths(config, replayCommand(config));
  return signed && !signed.ok && result.code === EXIT_OK ? EXIT_USAGE : result.code;
}

/** A hook's script that cannot work here (a variable it requires is unset) is said now; it is not run until a check needs it. */
function warnHookScripts(config: Config): void {
  const hookWarnings = new Map<string, string[]>();
  for (const [name, h] of Object.entries(config.hooks))
    for (const p of checkHookScript(h.command, h.cwd ?? process.cwd(), process.env)?.problems ?? [])
      hookWarnings.set(p, [...(hookWarnings.get(p) ?? []), name]);
  for (const [p, names] of hookWarnings) process.stderr.write(`wfmck run: warning: hooks ${names.join(', ')}: ${p}\n`);
}

const SELF_CHECK =
  "SELF-CHECK: the client under test is the kit's own simulated client; this run checks the kit, it is not a certificate of your client (configure hooks.startClient, or run --attend)";

/** Persona device with no client of the user's: the embedded startClient runs the kit's own. */
function isSelfCheck(context: RunContext): boolean {
  return context.persona === 'device' && !context.attend && context.hooks.startClient?.kind !== 'command';
}

/**
 * `--last-failed`: the newest run under reports/out that left its replay.yaml, and the requirements it failed; the
 * replay configuration comes first, so any setting given now still wins over it.
 */
function lastFailed(): { configFile: string; ids: string[] } | { nothing: string } {
  const dir = lastRun(resolve('reports', 'out'));
  if (dir === undefined) throw new UsageError('--last-failed: no earlier run under reports/out left its conformance.json and replay.yaml');
  const ids = failedIds(dir);
  if (ids.length === 0) return { nothing: `--last-failed: the newest run (${dir}) failed no requirement: nothing to run again` };
  say(`--last-failed: the ${ids.length} requirement${ids.length === 1 ? '' : 's'} ${dir} failed: ${ids.join(', ')}`);
  return { configFile: join(dir, REPLAY_FILE), ids };
}

/**
 * `--list`: the checks the selection runs, as Playwright collects them for the persona (nothing is started: no
 * embedded service, no hook). One line per check, its title starting with its requirement ids, and its file.
 */
async function listChecks(config: Config): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-list-'));
  try {
    const context = join(dir, 'run-context.json');
    writeFileSync(context, JSON.stringify({ persona: config.persona, outDir: dir }));
    const args = [
      ...playwrightNodeArgs(),
      'test',
      '--config',
      join(root, 'playwright.config.ts'),
      '--list',
      '--reporter=json',
      ...(config.grep ? ['--grep', config.grep] : []),
    ];
    const child = spawnSync(process.execPath, args, {
      cwd: root,
      env: { ...process.env, WFMCK_CONTEXT: context },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const checks = listedChecks(child.stdout);
    if (checks === undefined)
      throw new Error(`Playwright could not list the checks: ${(child.stderr || child.stdout).split('\n').slice(0, 3).join(' ')}`);
    for (const c of checks) process.stdout.write(`${c.title}  (${c.file}:${c.line})\n`);
    const ids = new Set(
      checks.flatMap(
        (c) =>
          c.title
            .match(/^(?:[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+(?::[a-z0-9-]+)? )+/)?.[0]
            .trim()
            .split(' ') ?? [],
      ),
    );
    say(
      `${checks.length} check${checks.length === 1 ? '' : 's'} of ${ids.size} requirement${ids.size === 1 ? '' : 's'} (persona ${config.persona}); nothing was started`,
    );
    return checks.length > 0 ? EXIT_OK : EXIT_USAGE;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface JsonSuite {
  specs?: { title: string; file: string; line: number }[];
  suites?: JsonSuite[];
}

/** The specs of Playwright's JSON report, in file order; undefined when the output is no such report. */
export function listedChecks(stdout: string): { title: string; file: string; line: number }[] | undefined {
  let report: { suites?: JsonSuite[] };
  try {
    report = JSON.parse(stdout) as { suites?: JsonSuite[] };
  } catch {
    return undefined;
  }
  const out: { title: string; file: string; line: number }[] = [];
  const walk = (s: JsonSuite) => {
    for (const spec of s.specs ?? []) out.push({ title: spec.title, file: spec.file, line: spec.line });
    for (const child of s.suites ?? []) walk(child);
  };
  for (const s of report.suites ?? []) walk(s);
  return out;
}

/** Attended mode: what to give the client under test, once; each check then names its own folder of credentials. */
function attendBanner(context: RunContext, exec: string | undefined): void {
  const t = context.targets;
  const bundle = context.judging?.clientDiscovery
    ? `discovery ${context.judging.clientDiscovery}`
    : t.trustBundleUri && `trust bundle ${t.trustBundleUri}`;
  const lines = [
    exec === undefined
      ? 'attended mode: for each check, start your device client by hand with what it prints; the kit waits for its first'
      : `attended mode: for each check, the kit runs ${exec} with {folder} the check's folder; it waits for the client's first`,
    "  request (or for a file named started in the check's folder: a client told to refuse may never reach the WFM)",
    `  WFM           ${t.wfm}`,
    `  CA            ${context.tls.caFiles[0]}`,
    ...(bundle ? [`  identity      ${bundle}`] : []),
    ...(t.registry ? [`  registry      ${t.registry}`] : []),
    `  credentials   a new certificate and key per check, in ${context.attend!.dir}/NNN-<check>/ (client.json holds all of it,`,
    `                as a startClient hook would get it; \`npx wfmck client <folder>\` runs the kit's own client from it)`,
    `  checks that restart the client or change what it reports need hooks (stopClient, removeChild, ...) and skip without them`,
  ];
  say(lines.join('\n'));
}

/** How the operator's commands ended, in one line: a command that failed is the client's problem, never a verdict. */
function attendExecLine(summary: AttendExecSummary): string {
  const ended = Object.entries(summary.ended);
  const failed = ended.filter(([, how]) => how !== 0).map(([name, how]) => `${name.slice(0, 3)} (${how})`);
  return `attend-exec: ${ended.length} command${ended.length === 1 ? '' : 's'} ran, ${ended.length - failed.length} exited 0${failed.length ? `; not 0: ${failed.join(', ')}` : ''}`;
}

function namedTargetsLine(config: Config): string {
  return Object.entries(config.targets)
    .filter(([k, v]) => k !== 'registryRepository' && v !== undefined)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

function runPlaywright(config: Config, env: Record<string, string>, signals: Signals): Promise<number | null> {
  // Attended mode: one check at a time, since a person starts each client.
  const workers = config.attend ? 1 : config.workers;
  const args = [...playwrightNodeArgs(), 'test', '--config', join(root, 'playwright.config.ts'), '--workers', String(workers)];
  if (config.grep) args.push('--grep', config.grep);
  if (config.shard) args.push('--shard', `${config.shard.index}/${config.shard.total}`);
  if (config.maxFailures !== undefined) args.push('--max-failures', String(config.maxFailures));
  return runPlaywrightProcess(args, { cwd: root, env: { ...process.env, ...env } }, signals);
}

/** The command that replays this run: its resolved configuration (replay.yaml) with the seed fixed, into a fresh folder. */
export function replayCommand(config: Pick<Config, 'out' | 'seed' | 'grep'>): string {
  const rel = (p: string) => (p.startsWith(process.cwd() + sep) ? relative(process.cwd(), p) : p);
  return [
    'npx',
    'wfmck',
    'run',
    '--config',
    rel(join(config.out, REPLAY_FILE)),
    '--seed',
    String(config.seed),
    ...(config.grep ? ['--grep', config.grep] : []),
  ]
    .map(shellQuote)
    .join(' ');
}

/** The files of the run, each only when it was written (a full disk may have left any of them out). */
function printPaths(config: Config, replay: string): void {
  const rel = (p: string) => (p.startsWith(process.cwd() + sep) ? relative(process.cwd(), p) : p);
  const rows: [string, string, string?][] = [
    ['requirement report', 'conformance.json'],
    ['requirement matrix', 'conformance.html'],
    ['JUnit', 'junit.xml'],
    ...(config.signing ? [['signature', ENVELOPE_FILE, ` (wfmck verify-report ${rel(config.out)})`] as [string, string, string]] : []),
    ['Playwright report', join('playwright-report', 'index.html')],
  ];
  // Empty is not written: Playwright's own HTML report is left empty (not missing) by a full disk.
  const written = (file: string) => existsSync(join(config.out, file)) && statSync(join(config.out, file)).size > 0;
  const lines = rows
    .filter(([, file]) => written(file))
    .map(([label, file, more]) => `  ${label.padEnd(19)} ${rel(join(config.out, file))}${more ?? ''}`);
  if (written(REPLAY_FILE)) lines.push(`  replay              ${replay}`);
  if (lines.length > 0) process.stdout.write(lines.join('\n') + '\n');
}

function say(line: string): void {
  process.stdout.write(`wfmck run: ${line}\n`);
}
