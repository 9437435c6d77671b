// The console while a run's checks run (wfmck run's default; `--reporter list` gives Playwright's one line per check):
// one line per spec file once its checks are done, with its counts by outcome and, under it, each failure's reason. A
// long run says every HEARTBEAT_MS how far it is. The verdict's one summary line is wfmck run's, after the reports.
import { relative } from 'node:path';
import type { FullConfig, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { decidingNote, outcomeNotes } from '../run/contract/outcomes.ts';
import { clipWords, terminalSafe } from './terminal.ts';

/** `interrupted`: a signal stopped the check before it ended (the report says skip, interrupted), never a failure. */
type Outcome = 'pass' | 'fail' | 'warn' | 'blocked' | 'skip' | 'error' | 'interrupted';
const ORDER: readonly Outcome[] = ['fail', 'error', 'blocked', 'warn', 'pass', 'skip', 'interrupted'];
const LABEL: Partial<Record<Outcome, string>> = { fail: 'FAIL ', error: 'ERROR', interrupted: 'INTERRUPTED' };
const HEARTBEAT_MS = 30_000;
const REASON_CHARS = 180;
const TITLE_CHARS = 100;

interface FileTally {
  left: number;
  counts: Map<Outcome, number>;
  failures: string[];
}

/** A test's outcome as the matrix will read it: typed notes first, then Playwright's status. */
export function outcomeOf(test: Pick<TestCase, 'annotations'>, result: Pick<TestResult, 'status' | 'annotations'>): Outcome {
  const annotations = [...test.annotations, ...(result.annotations ?? [])];
  const note = decidingNote(outcomeNotes(annotations));
  if (note?.outcome === 'error') return 'error';
  if (note?.outcome === 'blocked') return 'blocked';
  if (result.status === 'interrupted') return 'interrupted';
  if (result.status === 'skipped') return 'skip';
  if (result.status === 'passed') return annotations.some((a) => a.type === 'warning') ? 'warn' : 'pass';
  return 'fail';
}

/** The first line of what broke, terminal-safe: an expect's message, without colours or the call log. */
function reasonOf(result: TestResult): string {
  const text = (result.error?.message ?? '').replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const expected = lines.find((l) => l.startsWith('Expected'));
  const received = lines.find((l) => l.startsWith('Received'));
  const first = [lines[0], expected, received].filter(Boolean).join(' · ');
  const safe = terminalSafe(first);
  return clipWords(safe, REASON_CHARS);
}

export default class CompactReporter implements Reporter {
  private readonly files = new Map<string, FileTally>();
  private root = '';
  private total = 0;
  private done = 0;
  private timer: NodeJS.Timeout | undefined;

  printsToStdio(): boolean {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.root = config.rootDir;
    const tests = suite.allTests();
    this.total = tests.length;
    for (const t of tests) this.tally(t).left++;
    this.write(`wfmck: ${tests.length} checks in ${this.files.size} spec files, ${config.workers} workers`);
    this.timer = setInterval(() => this.write(`wfmck: ${this.done} of ${this.total} checks done`), HEARTBEAT_MS);
    this.timer.unref();
  }

  // What a check writes on purpose (the attended prompts, a hook's notice) reaches the operator as it is written.
  onStdOut(chunk: string | Buffer): void {
    process.stdout.write(chunk);
  }

  onStdErr(chunk: string | Buffer): void {
    process.stderr.write(chunk);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // A retry's earlier attempts never count (the kit runs without retries; a flaky check is a failure).
    if (result.status !== 'skipped' && result.retry < test.retries && result.status !== test.expectedStatus) return;
    this.done++;
    const file = this.tally(test);
    const outcome = outcomeOf(test, result);
    file.counts.set(outcome, (file.counts.get(outcome) ?? 0) + 1);
    const title = clipWords(terminalSafe(test.title), TITLE_CHARS);
    if (outcome === 'interrupted') file.failures.push(`    ${LABEL[outcome]} ${title}`);
    else if (outcome === 'fail' || outcome === 'error') file.failures.push(`    ${LABEL[outcome]} ${title}: ${reasonOf(result)}`);
    if (--file.left === 0) this.flush(test.location.file, file);
  }

  onEnd(): void {
    if (this.timer) clearInterval(this.timer);
    // Files cut short (an interrupted run) still say what ran.
    for (const [name, file] of this.files) if (file.left > 0 && file.counts.size > 0) this.flush(name, file, `${file.left} not run`);
  }

  private tally(test: TestCase): FileTally {
    const key = test.location.file;
    let file = this.files.get(key);
    if (!file) this.files.set(key, (file = { left: 0, counts: new Map(), failures: [] }));
    return file;
  }

  private flush(name: string, file: FileTally, extra?: string): void {
    const counts = ORDER.filter((o) => file.counts.has(o)).map((o) => `${file.counts.get(o)} ${o}`);
    const label = relative(this.root, name).replace(/\.spec\.ts$/, '');
    this.write([`  ${label.padEnd(28)} ${[...counts, ...(extra ? [extra] : [])].join(' · ')}`, ...file.failures].join('\n'));
    this.files.delete(name);
  }

  private write(text: string): void {
    process.stdout.write(`${text}\n`);
  }
}
