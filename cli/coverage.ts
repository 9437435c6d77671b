// `wfmck coverage`: spec/coverage.txt from the requirement catalog, Playwright's listing of the suites and the fault
// catalog. The text is reports/coverage.ts; this file lists the suites, and prints, writes or checks the file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { faultCatalog } from '../faults/catalog.ts';
import { listingErrors, suiteTests, type PlaywrightListing } from '../faults/harness/checked.ts';
import { suiteListing } from '../faults/harness/listing.ts';
import { COVERAGE_FILE, coverageDiff, coverageText } from '../reports/coverage.ts';
import { loadRequirements } from '../spec/requirements.ts';
import { EXIT_FAIL, EXIT_OK, UsageError } from '../run/options/usage.ts';
import { helpText, parseCommand, type CommandSpec } from '../run/options/options.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Lines of a stale file's diff printed by --check; the rest is counted. */
const SHOWN = 20;

export const SPEC: CommandSpec = {
  name: 'coverage',
  usage: ['[--write | --check]'],
  about: `Prints ${COVERAGE_FILE}: one line per requirement of spec/requirements.yaml with the suite tests that check
it (from Playwright's listing of every suite, no test runs) and the faults of faults/catalog.yaml that prove those
checks fail. A check added, moved or renamed, or a fault added, changes its line: regenerate the file with --write
and review the diff. --check exits 1 with the lines that differ when the committed file is stale. Exit 2 when a
suite fails to load.`,
  groups: [
    {
      options: [
        { flag: 'write', doc: `rewrite ${COVERAGE_FILE} in the kit's folder` },
        { flag: 'check', doc: `compare with ${COVERAGE_FILE}: exit 0 when it is current, 1 with the lines that differ` },
      ],
    },
  ],
};

export async function run(argv: string[]): Promise<number> {
  const { help, values } = parseCommand(SPEC, argv);
  if (help) return (process.stdout.write(helpText(SPEC)), EXIT_OK);
  if (values.write && values.check) throw new UsageError('--write, --check: give one of them');
  const fresh = await freshCoverage();
  const file = join(ROOT, COVERAGE_FILE);
  if (values.write) {
    writeFileSync(file, fresh);
    process.stdout.write(`wfmck coverage: wrote ${file}\n`);
    return EXIT_OK;
  }
  if (!values.check) return (process.stdout.write(fresh), EXIT_OK);
  const stale = staleReport(existsSync(file) ? readFileSync(file, 'utf8') : '', fresh);
  process.stdout.write(stale ?? `wfmck coverage: ${COVERAGE_FILE} is current\n`);
  return stale === undefined ? EXIT_OK : EXIT_FAIL;
}

/** The coverage of the suites as they are now: one Playwright listing (seconds), then pure text. */
export async function freshCoverage(): Promise<string> {
  const out = await mkdtemp(join(tmpdir(), 'wfmck-coverage-'));
  try {
    return coverageOf(await suiteListing(out));
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** The text of a listing against the kit's catalogs; a suite that failed to load leaves no coverage to give. */
export function coverageOf(listing: PlaywrightListing | undefined): string {
  if (listing === undefined) throw new Error('suite listing: `playwright test --list` printed no JSON');
  const problems = [...new Set(listingErrors(listing))];
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return coverageText({ requirements: loadRequirements(), tests: suiteTests(listing), faults: faultCatalog() });
}

/** Undefined when `committed` is current; else what differs (the first lines of the diff) and how to fix it. */
export function staleReport(committed: string, fresh: string): string | undefined {
  const diff = coverageDiff(committed, fresh);
  if (diff.length === 0) return undefined;
  const more = diff.length > SHOWN ? [`... and ${diff.length - SHOWN} more line(s)`] : [];
  return [
    `wfmck coverage: ${COVERAGE_FILE} is stale (${diff.length} line(s) differ); run \`wfmck coverage --write\` and review the diff:`,
    ...diff.slice(0, SHOWN),
    ...more,
    '',
  ].join('\n');
}
