// What `wfmck faults` prints: the fault list, the catch table, the notes under it and a `N passed, N failed` line. Pure.
import { faultPassed, type FaultsReport } from './faults-json.ts';
import type { FaultEntry } from '../catalog.ts';

function columns(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell + ' '.repeat(widths[i]! - [...cell].length)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** `wfmck faults --list`: every fault with its service, the requirements it breaks and what it does. */
export function faultList(faults: readonly FaultEntry[]): string {
  const rows = [['fault', 'service', 'breaks', 'description'], ...faults.map((f) => [f.id, f.service, f.breaks.join(','), f.description])];
  return `${columns(rows)}\n${faults.length} fault${faults.length === 1 ? '' : 's'}\n`;
}

/** At most `most` ids in a cell; faults.json keeps them all. */
function brief(ids: readonly string[], most = 4): string {
  if (ids.length === 0) return '-';
  return ids.length <= most ? ids.join(',') : `${ids.slice(0, most).join(',')} +${ids.length - most} more`;
}

/** The catch table: one row per fault, ✓ only when every repeat caught it. */
export function faultsTable(report: FaultsReport): string {
  const rows = [['fault', 'service', 'caught', 'exact', 'failed requirements', 'blocked', 'time']];
  for (const f of report.faults) {
    const mark = f.flaky ? (f.caught ? '✓ flaky' : '✗ flaky') : f.caught ? '✓' : '✗';
    rows.push([
      f.id,
      f.service,
      mark,
      f.exact ? '=' : '≠',
      brief(f.failedRequirements),
      String(f.blockedRequirements.length),
      seconds(f.durationMs),
    ]);
  }
  return `${columns(rows)}\n`;
}

/** A label and its ids, wrapped under it at about 100 columns. */
function listed(label: string, ids: readonly string[]): string {
  const lines = [`${label} (${ids.length}):`];
  for (const id of ids) {
    const last = lines.length > 1 ? lines[lines.length - 1]! : undefined;
    if (last !== undefined && last.length + id.length < 100) lines[lines.length - 1] = `${last} ${id}`;
    else lines.push(`  ${id}`);
  }
  return lines.join('\n');
}

/** What needs a reader's attention after the table: misses, flaky faults, the clean control, unproven requirements. */
export function notes(report: FaultsReport): string {
  const lines: string[] = [];
  for (const f of report.faults.filter((x) => !x.caught))
    lines.push(`missed ${f.id}: ${f.reason ?? 'not every broken requirement failed'}`);
  for (const f of report.faults.filter((x) => x.flaky)) {
    const runs = f.repeats ?? [];
    lines.push(
      `flaky ${f.id}: caught in ${runs.filter((r) => r.caught).length} of ${runs.length} runs; failed per run: ${runs.map((r) => r.failedRequirements.join(',') || '-').join(' | ')}`,
    );
  }
  const c = report.clean;
  const scope = c.scope === 'all' ? 'the whole suite' : "the selected faults' tests";
  if (c.error !== undefined) lines.push(`clean services (${scope}): no verdict: ${c.error}`);
  else if (c.failedRequirements.length > 0) lines.push(listed(`clean services (${scope}): false failures`, c.failedRequirements));
  else lines.push(`clean services (${scope}): nothing failed (${seconds(c.durationMs)})`);
  if (c.erroredRequirements.length > 0) lines.push(listed('clean services: kit errors', c.erroredRequirements));
  if (report.unprovenRequirements.length > 0)
    lines.push(listed('unproven requirements (checked by the suites, broken by no fault)', report.unprovenRequirements));
  const inexact = report.faults.filter((f) => f.caught && !f.exact);
  for (const f of inexact)
    lines.push(
      `inexact ${f.id}: failed ${f.failedRequirements.filter((id) => !f.requirements.includes(id)).join(',')} beyond what it breaks`,
    );
  const exactness = Object.entries(report.summary.exactness)
    .map(([service, e]) => `${service} ${e.exact} of ${e.total}`)
    .join(', ');
  if (exactness) lines.push(`exactness (failed requirements = the fault's breaks): ${exactness}`);
  for (const p of report.problems) lines.push(`problem: ${p}`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** The last line, in the `N passed, N failed` form: a fault passes when it is caught every time, and exactly. */
export function summaryLine(report: FaultsReport): string {
  const passed = report.faults.filter((f) => faultPassed(f, report.full)).length;
  return `faults: ${passed} passed, ${report.faults.length - passed} failed\n`;
}
