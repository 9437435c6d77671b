// `wfmck lint`'s text on the console.
import { whyNotFailing } from '../spec/lint/findings.ts';
import { KIND_NAMES, type LintReport } from '../spec/lint/report.ts';
import { terminalSafe as safe } from './terminal.ts';

/**
 * One line per finding, `LEVEL  ID  message`, grouped by file; then the notes and a summary line. Entry names,
 * paths and messages come from the input (an archive's names are anyone's): each is printed terminal-safe, so no
 * name can erase a finding or paint a verdict of its own.
 */
export function humanReport(report: LintReport): string {
  const lines: string[] = [];
  const files = [...new Set(report.findings.map((f) => f.file ?? report.input))];
  const width = Math.max(0, ...report.findings.map((f) => f.level.length));
  for (const file of files) {
    lines.push(safe(file));
    for (const f of report.findings.filter((x) => (x.file ?? report.input) === file)) {
      const where = f.path === undefined ? '' : ` (${f.path})`;
      const why = whyNotFailing(f, report.strictness);
      lines.push(`  ${f.level.padEnd(width)}  ${f.requirement}  ${safe(f.message)}${safe(where)}${why ? ` [${why}]` : ''}`);
    }
  }
  for (const note of report.notes) lines.push(`note: ${safe(note)}`);
  const { must, should, may, failing } = report.summary;
  const verdict = failing > 0 ? `FAIL (${failing} failing at strictness ${report.strictness})` : `PASS at strictness ${report.strictness}`;
  lines.push(`${safe(report.input)} (${KIND_NAMES[report.kind]}): ${must} MUST, ${should} SHOULD, ${may} MAY: ${verdict}`);
  return `${lines.join('\n')}\n`;
}
