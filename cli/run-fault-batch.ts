// `wfmck run --fault-batch FILE`: several faults in one Playwright start-up, for the fault harness. Each fault gets its
// own embedded default (its own ports, stores, CA and admin token) with it switched on, its own run context and report
// folder, and its own copy of the suites in the batch's one Playwright project (run/contract/fault-batch.ts); so each is
// judged exactly as a run of that fault alone, while the runner, a worker and the kit's modules start once per batch.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../run/options/config.ts';
import type { RunContext } from '../run/contract/context.ts';
import { batchKey, parseFaultBatch, writeBatchSpecs, type BatchFault } from '../run/contract/fault-batch.ts';
import { ADMIN_TOKEN_ENV, prepareRun, type PreparedRun } from '../run/processes/global-setup.ts';
import { PLAYWRIGHT_SIGNALS, runPlaywrightProcess } from '../run/processes/playwright-process.ts';
import { playwrightNodeArgs } from '../run/processes/playwright-launch.ts';
import { catchSignals, signalExitCode } from '../run/processes/signals.ts';
import { writeInterruptedReport } from '../reports/write-report.ts';
import { EXIT_OK, EXIT_USAGE, UsageError } from '../run/options/usage.ts';
import { verdict } from './run-verdict.ts';

/** Runs the batch; exit 0 when every fault's run left a verdict (its own exit 0 or 1), 2 when one did not. */
export async function runFaultBatch(config: Config & { faultBatch: string }, root: string): Promise<number> {
  let entries;
  try {
    entries = parseFaultBatch(readFileSync(config.faultBatch, 'utf8'), config.faultBatch);
  } catch (e) {
    throw new UsageError(`faultBatch: ${(e as Error).message}`);
  }
  say(
    `${entries.length} faults, each on its own embedded default; persona ${config.persona}; edition ${config.profile.edition}; seed ${config.seed}; out ${config.out}`,
  );
  const signals = catchSignals(PLAYWRIGHT_SIGNALS);
  const prepared: PreparedRun[] = [];
  const env: Record<string, string> = {};
  let code: number | null = null;
  try {
    for (const [i, e] of entries.entries()) {
      if (signals.caught) break;
      const run = await prepareRun({ ...config, faults: [e.fault], out: e.out, faultBatch: undefined } as Config, {
        cli: true,
        tokenEnv: `${ADMIN_TOKEN_ENV}_${i + 1}`,
        keepWorkerAfterFailure: true,
      });
      prepared.push(run);
      Object.assign(env, run.env);
    }
    if (!signals.caught) {
      const faults: BatchFault[] = entries.map((e, i) => ({
        fault: e.fault,
        key: batchKey(i),
        contextFile: prepared[i]!.contextFile,
        outDir: e.out,
        ...(e.grep !== undefined && { grep: e.grep }),
      }));
      const specs = join(config.out, 'specs');
      await rm(specs, { recursive: true, force: true });
      await writeBatchSpecs(
        specs,
        join(root, 'suites'),
        faults.map((f, i) => ({ key: f.key, ...(entries[i]!.files && { files: entries[i]!.files }) })),
      );
      // The batch's own context: what playwright.config.ts reads (persona, reporter, timeouts, the faults).
      const context: RunContext = { ...prepared[0]!.context, outDir: config.out, batch: { specs, faults } };
      await mkdir(config.out, { recursive: true });
      const contextFile = join(config.out, 'run-context.json');
      await writeFile(contextFile, `${JSON.stringify(context, null, 2)}\n`);
      const args = [...playwrightNodeArgs(), 'test', '--config', join(root, 'playwright.config.ts'), '--workers', String(config.workers)];
      code = await runPlaywrightProcess(args, { cwd: root, env: { ...process.env, ...env, WFMCK_CONTEXT: contextFile } }, signals);
    }
    // A runner stopped before a fault's reporter wrote: its streamed records still tell what ran.
    if (signals.caught)
      for (const run of prepared)
        if (!existsSync(join(run.context.outDir, 'conformance.json')))
          writeInterruptedReport(run.context, `wfmck run got ${signals.caught}`);
  } finally {
    await Promise.allSettled(prepared.map((run) => run.close()));
    signals.dispose();
  }
  if (signals.caught) return signalExitCode(signals.caught);
  if (code === null) say('Playwright ended without an exit code');
  let all = EXIT_OK;
  for (const e of entries) {
    const result = await verdict(join(e.out, 'conformance.json'));
    say(`${e.fault}: ${result.line}`);
    if (result.code === EXIT_USAGE) all = EXIT_USAGE;
  }
  return all;
}

function say(line: string): void {
  process.stdout.write(`wfmck run: ${line}\n`);
}
