// The Playwright reporter of a conformance run: reads the RunContext (env WFMCK_CONTEXT), and on onEnd, also for an
// interrupted run, writes conformance.json and conformance.html into the context's outDir.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestError } from '@playwright/test/reporter';
import { loadRequirements, type Requirement } from '../spec/requirements.ts';
import type { RunContext } from '../fixtures/run-context.ts';
import { buildReport, fallbackMeta, metaFromContext, type ConformanceReport, type RunMeta } from './conformance-json.ts';
import { recordOf } from './collect.ts';
import { EVIDENCE_DIR, withEvidenceFiles } from './evidence-files.ts';
import { stripAnsi } from './failure.ts';
import { renderHtml } from './html/render.ts';
import { findingLines, summaryLine } from './console.ts';
import { JUNIT_FILE, junitXml } from './junit.ts';
import { parseSectionTitles } from './sections.ts';

export interface RequirementReporterOptions {
  /** Output folder; default: the RunContext's outDir, else reports/out/<timestamp>. */
  outDir?: string;
  /** Run context file; default: env WFMCK_CONTEXT. */
  contextFile?: string;
  /** Print the one-line summary to stdout (default true). */
  print?: boolean;
  /** Test files are named relative to this; default the config file's folder (merge-reports: the kit's root). */
  rootDir?: string;
  /** Catalog to judge against; default spec/requirements.yaml. */
  catalog?: readonly Requirement[];
}

export const JSON_FILE = 'conformance.json';
export const HTML_FILE = 'conformance.html';

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

  onEnd(result: FullResult): void {
    const { report, files } = withEvidenceFiles(this.build(result.status === 'interrupted'));
    mkdirSync(this.outDir, { recursive: true });
    // A reused output folder must not keep evidence of an earlier run that the report no longer names.
    rmSync(join(this.outDir, EVIDENCE_DIR), { recursive: true, force: true });
    for (const f of files) {
      mkdirSync(dirname(join(this.outDir, f.path)), { recursive: true });
      writeFileSync(join(this.outDir, f.path), f.text);
    }
    writeFileSync(join(this.outDir, JSON_FILE), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(this.outDir, HTML_FILE), renderHtml(report, specSectionTitles()));
    writeFileSync(join(this.outDir, JUNIT_FILE), junitXml(report));
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
    const allIds = catalog.map((r) => r.id);
    const problems = [...this.problems];
    const records = (this.suite?.allTests() ?? []).map((t) =>
      recordOf(t, { rootDir: this.rootDir, runSeed: this.meta.seed ?? undefined, allIds, interrupted, ...(this.replayConfig && { replayConfig: this.replayConfig }) }, problems),
    );
    return buildReport({ meta: this.meta, catalog, records, endedAt: new Date().toISOString(), interrupted, filtered: this.filtered, problems });
  }

  private readContext(file: string | undefined): RunContext | undefined {
    if (!file) return undefined;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as RunContext;
    } catch (e) {
      this.problems.push(`run context ${file} unreadable (${(e as Error).message}); metadata is minimal`);
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

function kitVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** Headings of interfaces.md and profiles.md by section number, for the HTML's section titles. */
export function specSectionTitles(): Map<string, string> {
  const read = (name: string) => readFileSync(new URL(`../spec/source/${name}`, import.meta.url), 'utf8');
  return new Map([...parseSectionTitles(read('interfaces.md')), ...parseSectionTitles(read('profiles.md'))]);
}
