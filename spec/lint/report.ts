// The lint report: its JSON (`--json`) and the exit code P9's strictness gives it (reports/lint-text.ts prints it).
import type { Strictness } from '../profile.ts';
import { fails, toLintFinding, type LintFinding } from './findings.ts';
import type { LintKind, LintResult } from './input.ts';

export interface LintReport {
  input: string;
  kind: LintKind;
  strictness: Strictness;
  findings: LintFinding[];
  notes: string[];
  summary: { must: number; should: number; may: number; failing: number };
}

export const KIND_NAMES: Record<LintKind, string> = {
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
    summary: {
      must: count(['MUST', 'MUST NOT']),
      should: count(['SHOULD', 'SHOULD NOT']),
      may: count(['MAY']),
      failing: findings.filter((f) => fails(f, strictness)).length,
    },
  };
}

/** 1 when any finding fails at the report's strictness (a MUST, or a SHOULD in strict), 0 otherwise. */
export function exitCodeOf(report: LintReport): 0 | 1 {
  return report.summary.failing > 0 ? 1 : 0;
}
