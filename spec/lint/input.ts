// What every lint input module returns, and the error for input the kit cannot judge at all (exit 2).
import type { Located } from './findings.ts';

export type LintKind = 'capabilities' | 'package-folder' | 'compose-archive' | 'package' | 'compose-component';

export interface LintResult {
  kind: LintKind;
  findings: Located[];
  /** What the kit read the input as, for the human report (never a finding). */
  notes: string[];
}

/** Input that cannot be judged: not JSON, not readable within the kit's limits, not found. */
export class LintInputError extends Error {
  readonly code: string;
  constructor(message: string, code = 'WFMCK_E_LINT_INPUT') {
    super(message);
    this.name = 'LintInputError';
    this.code = code;
  }
}
