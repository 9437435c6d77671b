// What a run says on the console when it ends: failures grouped by root cause ("CAP-PUT-201 failed; 19 requirements
// blocked by it"), kit errors by code, and one summary line with every count. Pure: the report in, lines out.
import type { ConformanceReport } from './conformance-json.ts';
import type { RequirementResult, Summary } from './matrix.ts';
import { terminalSafe } from './terminal.ts';

const MAX_LISTED = 8;

/** The verdict's words, as the exit code means them. */
export function verdictWords(s: Pick<Summary, 'verdict' | 'mustFailed' | 'fail' | 'error' | 'judged'>): string {
  if (s.mustFailed > 0 || s.fail > 0)
    return `NOT CONFORMANT: ${s.fail} requirement${s.fail === 1 ? '' : 's'} failed, ${s.mustFailed} of them MUST`;
  if (s.error > 0) return `KIT ERROR, no verdict for ${s.error} requirement${s.error === 1 ? '' : 's'}`;
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
 * The findings block: each failed requirement once, with what it blocked; blocks whose cause did not fail here;
 * kit errors. Empty when there is nothing to say.
 */
export function findingLines(
  report: Pick<ConformanceReport, 'requirements' | 'rootCauses'> & Partial<Pick<ConformanceReport, 'outages'>>,
): string[] {
  const byId = new Map(report.requirements.map((r) => [r.id, r]));
  const causes = new Map(report.rootCauses.map((c) => [c.id, c]));
  const lines: string[] = [];
  // A target that stopped answering is one finding: its failures are listed under it, not one by one.
  const dark = new Set((report.outages ?? []).flatMap((o) => o.requirements));
  for (const o of report.outages ?? []) {
    lines.push(
      `  ${terminalSafe(o.origin)} stopped answering at ${o.since} (${o.codes.join(', ')}): ${o.requirements.length} requirements failed on no answer: ${listed(o.requirements)}`,
    );
  }
  const failed = report.requirements.filter(
    (r) => !dark.has(r.id) && (r.status === 'fail' || (r.status === 'warn' && r.tests.some((t) => t.status === 'fail'))),
  );
  for (const r of failed) {
    const blocks = causes.get(r.id)?.blocks ?? [];
    lines.push(`  ${r.id} (${r.level}) ${r.status === 'fail' ? 'failed' : 'warned'}${reasonOf(r)}`);
    if (blocks.length > 0) lines.push(`    ${blocks.length} requirement${blocks.length === 1 ? '' : 's'} blocked by it: ${listed(blocks)}`);
  }
  for (const c of report.rootCauses.filter((c) => !failed.some((r) => r.id === c.id))) {
    const status =
      c.status === 'not-run'
        ? 'was not run in this run'
        : `is ${c.status} in its own check (the target answered it and the setup differently)`;
    lines.push(
      `  ${c.blocks.length} requirement${c.blocks.length === 1 ? '' : 's'} blocked by ${c.id}, which ${status}: ${listed(c.blocks)}`,
    );
  }
  for (const r of report.requirements.filter((q) => q.status === 'error')) lines.push(`  ${r.id} kit error${reasonOf(byId.get(r.id))}`);
  return lines.length > 0 ? ['wfmck: findings by cause', ...lines] : [];
}
