// What a run says on the console when it ends: failures grouped by root cause ("CAP-PUT-201 failed; 19 requirements
// blocked by it"), kit errors by code, and one summary line with every count. Pure: the report in, lines out.
import type { ConformanceReport } from './conformance-json.ts';
import type { RequirementResult, Summary } from './matrix.ts';
import { terminalSafe } from './terminal.ts';
import { outageHeadline } from './outage-declared.ts';
import { failuresOf, listedCauses, replayOf } from './causes.ts';
import { kitErrorCauses, kitErrorHeadline } from './kit-error-causes.ts';

const MAX_LISTED = 8;

/** The verdict's words, as the exit code means them. */
export function verdictWords(s: Pick<Summary, 'verdict' | 'mustFailed' | 'fail' | 'error' | 'judged'>): string {
  // A kit error first: with the kit broken, failures beside it are not a verdict either (exit 2).
  if (s.error > 0)
    return `NO VERDICT: the kit broke on ${s.error} requirement${s.error === 1 ? '' : 's'}${s.fail > 0 ? ` (${s.fail} failed besides; see the causes)` : ''}`;
  if (s.mustFailed > 0 || s.fail > 0)
    return `NOT CONFORMANT: ${s.fail} requirement${s.fail === 1 ? '' : 's'} failed, ${s.mustFailed} of them MUST`;
  if (s.judged === 0) return 'NO VERDICT: nothing was judged';
  return s.verdict === 'conformant' ? 'CONFORMANT' : 'INCOMPLETE: no failure, but not every MUST was judged';
}

/** Every count of the summary, in one clause. */
export function countsClause(s: Summary): string {
  return (
    `${s.requirements} requirements: ${s.pass} pass, ${s.fail} fail, ${s.warn} warn, ${s.blocked} blocked, ${s.skip} skip, ` +
    `${s.untestable} untestable, ${s.notCovered} not covered, ${s.error} kit error`
  );
}

export function summaryLine(report: Pick<ConformanceReport, 'summary' | 'interrupted'>): string {
  return `${verdictWords(report.summary)}${report.interrupted ? ' (interrupted: partial)' : ''}; ${countsClause(report.summary)}`;
}

function listed(ids: readonly string[]): string {
  return ids.length > MAX_LISTED ? `${ids.slice(0, MAX_LISTED).join(', ')} and ${ids.length - MAX_LISTED} more` : ids.join(', ');
}

function reasonOf(r: RequirementResult | undefined): string {
  return r?.reason ? `: ${terminalSafe(r.reason)}` : '';
}

/**
 * The findings block: each cause once, most blocking first (a failure with the requirements that failed on its
 * exchange, what it blocked and its replay command; blocks whose cause did not fail here); kit errors. Empty when there
 * is nothing to say.
 */
export function findingLines(
  report: Pick<ConformanceReport, 'requirements' | 'rootCauses'> & Partial<Pick<ConformanceReport, 'outages'>>,
): string[] {
  const byId = new Map(report.requirements.map((r) => [r.id, r]));
  const lines: string[] = [];
  // A target that stopped answering is one finding: its failures are listed under it, not one by one.
  const dark = new Set((report.outages ?? []).flatMap((o) => o.requirements));
  for (const o of report.outages ?? []) {
    lines.push(`  ${terminalSafe(outageHeadline(o))}: ${listed(o.requirements)}`);
  }
  // Most blocking first; failures of one exchange are one cause (reports/causes.ts).
  for (const c of listedCauses(report)) {
    const [r, ...also] = failuresOf(c, byId, dark);
    if (r !== undefined) {
      lines.push(`  ${r.id} (${r.level}) ${r.status === 'fail' ? 'failed' : 'warned'}${reasonOf(r)}`);
      if (also.length > 0) lines.push(`    the same exchange failed ${also.map((q) => `${q.id} (${q.level})`).join(', ')} too`);
      if (c.blocks.length > 0)
        lines.push(`    ${c.blocks.length} requirement${c.blocks.length === 1 ? '' : 's'} blocked by it: ${listed(c.blocks)}`);
      const replay = replayOf(r);
      if (replay !== undefined) lines.push(`    replay: ${terminalSafe(replay)}`);
      continue;
    }
    if (c.blocks.length === 0) continue;
    const status =
      c.status === 'not-run'
        ? 'was not run in this run'
        : `is ${c.status} in its own check (the target answered it and the setup differently)`;
    lines.push(
      `  ${c.blocks.length} requirement${c.blocks.length === 1 ? '' : 's'} blocked by ${c.id}, which ${status}: ${listed(c.blocks)}`,
    );
  }
  // Kit errors by cause (a hook that is not wired is one line, however many checks needed it); never a finding.
  for (const c of kitErrorCauses(report.requirements))
    lines.push(
      `  kit error, not the target's: ${terminalSafe(kitErrorHeadline(c))}`,
      `    requirements without a verdict: ${listed(c.requirements)}`,
    );
  return lines.length > 0 ? ['wfmck: findings by cause', ...lines] : [];
}
