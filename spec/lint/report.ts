// The lint report: JSON (`--json`) and human text, and the exit code P9's strictness gives it.
import type { Strictness } from '../profile.ts';
import { fails, toLintFinding, whyNotFailing, type LintFinding } from './findings.ts';
import type { LintKind, LintResult } from './input.ts';

export interface LintReport {
  input: string;
  kind: LintKind;
  strictness: Strictness;
  findings: LintFinding[];
  notes: string[];
  summary: { must: number; should: number; may: number; failing: number };
}

const KIND_NAMES: Record<LintKind, string> = {
  capabilities: 'DeviceCapabilities document',
  'package-folder': 'application package folder',
  'compose-archive': 'compose archive',
  package: 'pushed application package',
  'compose-component': 'pushed compose component',
};

export function lintReport(input: string, result: LintResult, strictness: Strictness): LintReport {
  const findings = result.findings.map(toLintFinding);
  const count = (levels: string[]) => findings.filter((f) => levels.includes(f.level)).length;
  return {
    input,
    kind: result.kind,
    strictness,
    findings,
    notes: result.notes,
    summary: { must: count(['MUST', 'MUST NOT']), should: count(['SHOULD', 'SHOULD NOT']), may: count(['MAY']), failing: findings.filter((f) => fails(f, strictness)).length },
  };
}

/** 1 when any finding fails at the report's strictness (a MUST, or a SHOULD in strict), 0 otherwise. */
export function exitCodeOf(report: LintReport): 0 | 1 {
  return report.summary.failing > 0 ? 1 : 0;
}

/** One line per finding, `LEVEL  ID  message`, grouped by file; then the notes and a summary line. */
export function humanReport(report: LintReport): string {
  const lines: string[] = [];
  const files = [...new Set(report.findings.map((f) => f.file ?? report.input))];
  const width = Math.max(0, ...report.findings.map((f) => f.level.length));
  for (const file of files) {
    lines.push(file);
    for (const f of report.findings.filter((x) => (x.file ?? report.input) === file)) {
      const where = f.path === undefined ? '' : ` (${f.path})`;
      const why = whyNotFailing(f, report.strictness);
      lines.push(`  ${f.level.padEnd(width)}  ${f.requirement}  ${f.message}${where}${why ? ` [${why}]` : ''}`);
    }
  }
  for (const note of report.notes) lines.push(`note: ${note}`);
  const { must, should, may, failing } = report.summary;
  const verdict = failing > 0 ? `FAIL (${failing} failing at strictness ${report.strictness})` : `PASS at strictness ${report.strictness}`;
  lines.push(`${report.input} (${KIND_NAMES[report.kind]}): ${must} MUST, ${should} SHOULD, ${may} MAY: ${verdict}`);
  return `${lines.join('\n')}\n`;
}
