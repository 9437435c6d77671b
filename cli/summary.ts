// `wfmck summary <dir>`: a report folder's verdict, counts and failure causes, read back from its conformance.json:
// the console's words by default, Markdown for a CI job summary with --markdown. The rendering is reports/.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from '../reports/conformance-json.ts';
import { findingLines, summaryLine } from '../reports/console.ts';
import { markdownSummary } from '../reports/markdown-summary.ts';
import { EXIT_OK, InputError, UsageError } from '../run/options/usage.ts';
import { helpText, parseCommand, type CommandSpec } from '../run/options/options.ts';

export const SPEC: CommandSpec = {
  name: 'summary',
  usage: ['<dir> [--markdown]'],
  about: `Prints the verdict of a report folder written by \`wfmck run\` (its conformance.json): the verdict, the counts
and each failure cause once, with the causes that leave no verdict (kit errors, a target that went away) named as
such. --markdown prints it for a CI job summary (GitHub's $GITHUB_STEP_SUMMARY, a GitLab job page), with the counts
by level and the replay command. Exit 0 when it printed, 2 when the folder holds no readable report; the verdict
itself is \`wfmck run\`'s exit code.`,
  positionals: true,
  groups: [{ options: [{ flag: 'markdown', doc: 'print Markdown (a verdict line, tables of counts and causes, the replay command)' }] }],
};

export function run(argv: string[]): Promise<number> {
  return Promise.resolve(summaryCommand(argv, (text) => void process.stdout.write(text)));
}

/** The command with its output as a seam, so tests can run it in-process. */
export function summaryCommand(argv: string[], write: (text: string) => void): number {
  const { help, values, positionals } = parseCommand(SPEC, argv);
  if (help) return (write(helpText(SPEC)), EXIT_OK);
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0 ? '<dir>: missing: summary takes one report folder' : `${positionals[1]}: unexpected argument`,
    );
  const dir = positionals[0]!;
  const report = readReport(join(dir, 'conformance.json'));
  if (values.markdown) write(markdownSummary(report, { dir: dir.replace(/\/+$/, '') || '/' }));
  else write([`wfmck: ${summaryLine(report)}`, ...findingLines(report)].join('\n') + '\n');
  return EXIT_OK;
}

function readReport(file: string): ConformanceReport {
  if (!existsSync(file)) throw new InputError(`${file}: no such file (wfmck run writes it in its --out folder)`);
  let report: Partial<ConformanceReport>;
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConformanceReport>;
  } catch (e) {
    throw new InputError(`${file}: not JSON (${(e as Error).message})`);
  }
  const s = report.summary;
  if (typeof s?.judged !== 'number' || !Array.isArray(report.requirements) || !Array.isArray(report.rootCauses))
    throw new InputError(`${file}: not a conformance.json of this kit's version (no summary, requirements or rootCauses)`);
  return { problems: [], outages: [], interrupted: false, ...report } as ConformanceReport;
}
