// Playwright Test configuration of the conformance suites. `wfmck run` passes the RunContext in WFMCK_CONTEXT;
// a plain `npx playwright test` gets one from run/processes/global-setup.ts, in the same output folder.
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { conformanceReporters, faultReporter } from './reports/reporters.ts';
import { watchParent } from './run/processes/watchdog.ts';
import { PERSONA, suiteSelection } from './run/contract/personas.ts';
import { readRunContext } from './run/contract/read-context.ts';
import { batchGrep } from './run/contract/fault-batch.ts';

// Under `wfmck run`: die with it (its pipe on fd 3 closes when it does).
watchParent();

const root = dirname(fileURLToPath(import.meta.url));

/** None before `wfmck run` or global setup wrote it (a plain `npx playwright test`). */
const context = readRunContext();

/** The suites of what the persona judges (run/contract/personas.ts): a device client is no service, so only suites/device. */
const persona = context?.persona ?? PERSONA;

/**
 * Attended mode: a check waits for its operator to start the client (a restart check starts one twice). `wfmck run`
 * also runs it with one worker (its --workers wins over this file).
 */
const attend = context?.attend;

/**
 * A fault batch: its test folder holds a copy of the suites per fault (`<key>/...`), each fault's checks against its own
 * services (the fixtures read its context file by the check's file); the grep keeps each fault's checks in its own files.
 */
const batch = context?.batch;

function outDir(): string {
  if (context) return context.outDir;
  // Set once in the runner; workers inherit it, so every process agrees on one folder.
  process.env.WFMCK_OUT ??= resolve('reports', 'out', new Date().toISOString().replace(/[:.]/g, '-'));
  return resolve(process.env.WFMCK_OUT);
}

const out = outDir();

const reporter: ReporterDescription[] = [
  // The console: wfmck run's compact lines by default; Playwright's own when asked (--reporter), or without a context.
  [
    (context?.reporter ?? 'list') === 'compact'
      ? join(root, 'reports', 'compact-reporter.ts')
      : (context?.reporter ?? (process.env.CI ? 'line' : 'list')),
  ],
  // A fault batch (`wfmck run --fault-batch`): one requirement report per fault, each of its own files' checks. No
  // Playwright HTML: its failed checks kept their worker, which Playwright's own report would show as expected.
  ...(batch ? batch.faults.map((f) => faultReporter(f)) : conformanceReporters(out)),
  // `wfmck run --shard i/n`: the shard's blob report, joined by `wfmck merge-reports`.
  ...(context?.shard?.blobDir ? [['blob', { outputDir: context.shard.blobDir }] as ReporterDescription] : []),
];

export default defineConfig({
  testDir: batch?.specs ?? join(root, 'suites'),
  // WFMCK_LIST_ALL: `wfmck faults` lists every suite, each persona's, to name the checks no fault proves.
  ...suiteSelection(persona, !!process.env.WFMCK_LIST_ALL),
  outputDir: join(out, 'test-results'),
  fullyParallel: false,
  workers: 2,
  // A check that passes on a second try is flaky, and flaky is a failure.
  retries: 0,
  // --timeout-scale stretches the kit's own budget on a slow machine; the operator's attend wait is theirs, as given.
  timeout: 60_000 * (context?.timeoutScale ?? 1) + (attend ? 2 * attend.timeoutMs : 0),
  forbidOnly: !!process.env.CI,
  reporter,
  ...(batch && { grep: new RegExp(batchGrep(batch.faults)) }),
  globalSetup: join(root, 'run', 'processes', 'global-setup.ts'),
  globalTeardown: join(root, 'run', 'processes', 'global-teardown.ts'),
});
