// The reporters a conformance run writes into its output folder: the requirement matrix (the verdict, and JUnit from
// it, so CI sees the typed outcomes) and Playwright's HTML. playwright.config.ts uses them for a run; `wfmck merge-reports` for the merge of a sharded one.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequirementReporterOptions } from './requirement-reporter.ts';
import type { BatchFault } from '../run/contract/fault-batch.ts';

const REQUIREMENT_REPORTER = fileURLToPath(new URL('./requirement-reporter.ts', import.meta.url));

type Described = [string, Record<string, unknown>];

export function conformanceReporters(out: string, requirement: Omit<RequirementReporterOptions, 'outDir' | 'catalog'> = {}): Described[] {
  return [
    ['html', { outputFolder: join(out, 'playwright-report'), open: 'never' }],
    // conformance.json and conformance.html: the requirement matrix, the run's verdict.
    [REQUIREMENT_REPORTER, { outDir: out, ...requirement }],
  ];
}

/** The requirement report of one fault of a batch: its fault's context, its checks only (its files), in its folder. */
export function faultReporter(f: BatchFault): Described {
  return [REQUIREMENT_REPORTER, { outDir: f.outDir, contextFile: f.contextFile, batchKey: f.key } satisfies RequirementReporterOptions];
}
