// The verdict of a run: exit code and summary line from the requirement reporter's conformance.json (wfmck run, its
// fault batches and merge-reports read it alike).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ConformanceReport } from '../reports/conformance-json.ts';
import { summaryLine } from '../reports/console.ts';
import { stoppedLine } from '../reports/outage-declared.ts';
import { folderWriteProblem, reasonOf } from '../reports/safe-write.ts';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE } from '../run/options/usage.ts';

/**
 * Reads the reporter's conformance.json. Exit 2 when the kit could not judge (a kit error, a problem of the run
 * itself, nothing judged at all, or no readable report): that is never a verdict, whatever else the run found; else
 * exit 1 iff a requirement failed (a MUST; in strict strictness also a SHOULD, P9: the reporter already weighs levels);
 * else 0.
 */
export async function verdict(file: string): Promise<{ code: number; line: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    // Most often the folder could not take it (a full disk): say why, as the reporter met it.
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    const why = !missing ? reasonOf(e) : existsSync(dirname(file)) ? folderWriteProblem(dirname(file)) : undefined;
    return { code: EXIT_USAGE, line: `no verdict: the requirement reporter wrote no ${file}${why ? `: ${why}` : ''}` };
  }
  let report: Pick<ConformanceReport, 'summary' | 'interrupted' | 'problems'> & Partial<Pick<ConformanceReport, 'outages'>>;
  try {
    report = JSON.parse(text) as typeof report;
  } catch {
    return { code: EXIT_USAGE, line: `no verdict: ${file} is not JSON` };
  }
  const s = report.summary as Partial<ConformanceReport['summary']> | undefined;
  if (typeof s?.mustFailed !== 'number' || typeof s.judged !== 'number')
    return { code: EXIT_USAGE, line: `no verdict: ${file} has no summary of this kit's version` };
  const line = summaryLine(report);
  // A target that went away mid-run: no verdict, whatever the checks before it found.
  const outage = Array.isArray(report.outages) ? report.outages.find((o) => o.stopped) : undefined;
  if (outage) return { code: EXIT_USAGE, line: `no verdict: ${stoppedLine(outage)}` };
  const problems = Array.isArray(report.problems) ? report.problems.map(String) : [];
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more in ${file})` : '';
    return { code: EXIT_USAGE, line: `${line}; kit problem: ${problems[0]}${more}` };
  }
  if ((s.error ?? 0) > 0 || s.judged === 0) return { code: EXIT_USAGE, line };
  return { code: s.mustFailed > 0 || (s.fail ?? 0) > 0 ? EXIT_FAIL : EXIT_OK, line };
}
