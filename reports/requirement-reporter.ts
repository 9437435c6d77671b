// The Playwright reporter of a conformance run: reads the RunContext (env WFMCK_CONTEXT), streams each ended test to
// records.jsonl, and on onEnd, also for an interrupted run, writes the report folder (reports/write-report.ts).
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError } from '@playwright/test/reporter';
import { loadRequirements, type Requirement } from '../spec/requirements.ts';
import type { RunContext } from '../run/contract/context.ts';
import { readRunContext } from '../run/contract/read-context.ts';
import { buildReport, fallbackMeta, metaFromContext, type ConformanceReport, type RunMeta } from './conformance-json.ts';
import { recordOf } from './collect.ts';
import { stripAnsi } from './failure.ts';
import { findingLines, summaryLine } from './console.ts';
import { HTML_FILE, RECORDS_FILE, readOutage, writeReportFiles } from './write-report.ts';
import { OUTAGE_FILE } from './outage-declared.ts';
import { reasonOf } from './safe-write.ts';
import { batchKeyOf } from '../run/contract/fault-batch.ts';

export interface RequirementReporterOptions {
  /** Output folder; default: the RunContext's outDir, else reports/out/<timestamp>. */
  outDir?: string;
  /** Run context file; default: env WFMCK_CONTEXT. */
  contextFile?: string;
  /** Print the one-line summary to stdout (default true). */
  print?: boolean;
  /** Test files are named relative to this; default the config file's folder (merge-reports: the kit's root). */
  rootDir?: string;
  /** A fault of a batch: only the tests of its files (`<key>/...`) are this report's (the others have their own reporters). */
  batchKey?: string;
  /** Catalog to judge against; default spec/requirements.yaml. */
  catalog?: readonly Requirement[];
}

export { HTML_FILE, JSON_FILE, specSectionTitles } from './write-report.ts';

export function timestamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-');
}

export default class RequirementReporter implements Reporter {
  private readonly opts: RequirementReporterOptions;
  private readonly problems: string[] = [];
  private readonly startedAt = new Date();
  private suite: Suite | undefined;
  private rootDir = process.cwd();
  private filtered = false;
  private meta: RunMeta;
  private outDir: string;
  /** True under `wfmck run`, which prints the summary line itself. */
  private cli = false;
  private replayConfig: string | undefined;

  constructor(opts: RequirementReporterOptions = {}) {
    this.opts = opts;
    [this.meta, this.outDir] = this.loadContext();
  }

  /** Read again in onBegin: under plain `npx playwright test`, global setup writes the context after construction. */
  private loadContext(): [RunMeta, string] {
    const ctx = this.readContext(this.opts.contextFile ?? process.env.WFMCK_CONTEXT);
    this.cli = ctx?.cli === true;
    this.replayConfig = ctx?.replayConfig;
    const meta = ctx ? metaFromContext(ctx) : fallbackMeta(kitVersion(), this.startedAt.toISOString(), process.env);
    return [meta, resolve(this.opts.outDir ?? ctx?.outDir ?? join('reports', 'out', timestamp(this.startedAt)))];
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    [this.meta, this.outDir] = this.loadContext();
    this.suite = suite;
    this.rootDir = this.opts.rootDir ?? (config.configFile ? dirname(config.configFile) : config.rootDir);
    this.filtered = isFiltered(config);
  }

  onError(error: TestError): void {
    this.problems.push(`run error: ${stripAnsi(error.message ?? error.value ?? 'unknown error').split('\n')[0]}`);
  }

  /** Streams each ended test's record, so a runner that is killed still leaves what ran (cli/run.ts reads it). */
  onTestEnd(test: TestCase): void {
    if (!this.mine(test)) return;
    try {
      const record = recordOf(test, {
        rootDir: this.rootDir,
        runSeed: this.meta.seed ?? undefined,
        allIds: this.allIds(),
        interrupted: false,
        ...(this.replayConfig && { replayConfig: this.replayConfig }),
      });
      mkdirSync(this.outDir, { recursive: true });
      appendFileSync(join(this.outDir, RECORDS_FILE), `${JSON.stringify(record)}\n`);
    } catch (e) {
      // Once, with the path: a full disk fails every test's line the same way.
      const problem = `records stream: cannot append to ${join(this.outDir, RECORDS_FILE)}: ${reasonOf(e)}`;
      if (!this.problems.includes(problem)) this.problems.push(problem);
    }
  }

  onEnd(result: FullResult): void {
    let report: ConformanceReport;
    try {
      report = writeReportFiles(this.outDir, this.build(result.status === 'interrupted'));
    } catch (e) {
      // Playwright drops a reporter's error silently: say it here (a full disk, a folder we may not write); the
      // records stream stays, and `wfmck run` finds no conformance.json and says no verdict.
      process.stderr.write(`wfmck: the report was not written: ${(e as Error).message}\n`);
      return;
    }
    // The full report supersedes the stream, and holds the outage the watcher declared.
    rmSync(join(this.outDir, RECORDS_FILE), { force: true });
    rmSync(join(this.outDir, OUTAGE_FILE), { force: true });
    if (this.opts.print !== false) {
      const lines = findingLines(report);
      // Under `wfmck run` the command prints the one summary line itself, after signing; else this reporter does.
      if (!this.cli) lines.push(`wfmck: ${summaryLine(report)} -> ${join(this.outDir, HTML_FILE)}`);
      if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
    }
  }

  /** The report as it stands now: tests that never ran count as skipped. */
  build(interrupted: boolean): ConformanceReport {
    const catalog = this.opts.catalog ?? loadRequirements();
    const allIds = this.allIds();
    const problems = [...this.problems];
    const outage = readOutage(this.outDir);
    const records = (this.suite?.allTests() ?? [])
      .filter((t) => this.mine(t))
      .map((t) =>
        recordOf(
          t,
          {
            rootDir: this.rootDir,
            runSeed: this.meta.seed ?? undefined,
            allIds,
            interrupted,
            ...(this.replayConfig && { replayConfig: this.replayConfig }),
          },
          problems,
        ),
      );
    return buildReport({
      meta: this.meta,
      catalog,
      records,
      endedAt: new Date().toISOString(),
      interrupted,
      filtered: this.filtered,
      problems,
      ...(outage && { outage }),
    });
  }

  /** Every test is this report's, but in a fault batch only its own fault's (by its file, first in the title path). */
  private mine(test: TestCase): boolean {
    return this.opts.batchKey === undefined || batchKeyOf(fileOf(test)) === this.opts.batchKey;
  }

  private ids: string[] | undefined;
  private allIds(): string[] {
    return (this.ids ??= (this.opts.catalog ?? loadRequirements()).map((r) => r.id));
  }

  private readContext(file: string | undefined): RunContext | undefined {
    try {
      return readRunContext(file);
    } catch (e) {
      this.problems.push(`${(e as Error).message}; metadata is minimal`);
      return undefined;
    }
  }
}

/** A grep in the config, or on Playwright's command line (which FullConfig does not show), leaves tests out. */
function isFiltered(config: FullConfig, argv: readonly string[] = process.argv): boolean {
  const all = (g: RegExp | RegExp[]) => [g].flat().every((r) => r.source === '.*' || r.source === '(?:)');
  const inConfig = config.projects.some((p) => !all(p.grep) || p.grepInvert !== null) || !all(config.grep) || config.grepInvert !== null;
  return inConfig || config.shard !== null || argv.some((a) => /^(-g|--grep|--grep-invert)(=|$)/.test(a));
}

/** The title of the test's file suite: its path relative to the test folder. */
function fileOf(test: TestCase): string | undefined {
  let suite: Suite | undefined = test.parent;
  while (suite && suite.type !== 'file') suite = suite.parent;
  return suite?.title;
}

function kitVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
