// The matrix body: a table of what needs attention first, then one folded table per spec section, one row per
// requirement, each with a <details> of its tests, errors and evidence.
import type { RequirementResult, RequirementStatus, TestEntry } from '../matrix.ts';
import { esc, token } from './escape.ts';
import { evidenceHtml, type EvidenceOptions } from './exchanges.ts';

/** What a reader must look at: these rows lead the page, above every section (and so above every skip). */
export const ATTENTION: readonly RequirementStatus[] = ['fail', 'error', 'blocked', 'warn', 'not-covered'];
const RANK: readonly RequirementStatus[] = [...ATTENTION, 'pass', 'untestable', 'skip'];

export function byStatus(a: RequirementResult, b: RequirementResult): number {
  return RANK.indexOf(a.status) - RANK.indexOf(b.status);
}

export function badge(status: string): string {
  return `<span class="badge st-${token(status)}">${esc(status.replace('-', ' '))}</span>`;
}

function testHtml(t: TestEntry): string {
  const head =
    `<div class="test-head">${badge(t.status)} <span class="test-title">${esc(t.title)}</span> ` +
    `<span class="muted">${esc(t.file)}:${esc(t.line)} &middot; ${esc(t.durationMs)} ms</span></div>`;
  const reason = t.reason !== undefined ? `<div class="test-reason">${esc(t.reason)}</div>` : '';
  if (t.error === undefined) return `<div class="test">${head}${reason}</div>`;
  const e = t.error;
  const replayed = [e.seed !== undefined && `seed ${esc(e.seed)}`, e.path !== undefined && `path ${esc(e.path)}`]
    .filter(Boolean)
    .join(', ');
  const replay =
    e.replay !== undefined
      ? `<div class="replay"><span class="label">Replay${replayed ? ` (${replayed})` : ''}</span><code>${esc(e.replay)}</code></div>`
      : '';
  return `<div class="test">${head}${reason}<pre class="error">${esc(e.message)}</pre>${replay}</div>`;
}

function failingCount(r: RequirementResult): number {
  return r.tests.filter((t) => t.status === 'fail' || t.status === 'error' || t.status === 'blocked').length;
}

function brokeAt(r: RequirementResult): Map<string, string | undefined> {
  return new Map(r.tests.flatMap((t) => (t.brokeAt ? [[t.brokeAt.exchange, t.brokeAt.expected] as const] : [])));
}

export const UNPROVEN_HELP = 'checked by tests, but no fault in reference/faults/ shows the checks can fail: not trusted yet';

function faultsHtml(r: RequirementResult): string {
  const faults = r.faults ?? [];
  if (faults.length === 0)
    return r.unproven ? `<div class="faults"><span class="label">Faults</span>none: ${esc(UNPROVEN_HELP)}</div>` : '';
  const items = faults.map((f) => `<li><code>${esc(f.id)}</code> ${esc(f.description)}</li>`).join('');
  return `<div class="faults"><span class="label">Faults that prove these checks</span><ul>${items}</ul></div>`;
}

function detailsHtml(r: RequirementResult, o: EvidenceOptions): string {
  const proofs = r.faults?.length ?? 0;
  if (r.tests.length === 0 && proofs === 0) return '';
  const failing = failingCount(r);
  const n = r.tests.length;
  const exchanges = r.evidence?.length ?? 0;
  const label =
    n === 0
      ? `${proofs} fault${proofs === 1 ? '' : 's'}`
      : failing > 0
        ? `${failing} of ${n} test${n === 1 ? '' : 's'} ${r.status === 'blocked' ? 'blocked' : r.status === 'error' ? 'erred' : 'failed'}${exchanges > 0 ? `, ${exchanges} exchange${exchanges === 1 ? '' : 's'} of evidence` : ''}`
        : `${n} test${n === 1 ? '' : 's'}`;
  // Failures first: the reader opened this to see what went wrong.
  const tests = [...r.tests].sort((a, b) => Number(b.error !== undefined) - Number(a.error !== undefined));
  return (
    `<details class="${failing > 0 ? 'failure' : 'tests'}"><summary>${esc(label)}</summary>` +
    `${tests.map(testHtml).join('')}${faultsHtml(r)}${evidenceHtml(r.evidence ?? [], brokeAt(r), o)}</details>`
  );
}

function searchText(r: RequirementResult): string {
  return [r.id, r.text, r.reason, r.errata, ...r.tests.map((t) => t.title), ...(r.faults ?? []).map((f) => f.id), r.unproven && 'unproven']
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
}

export function rowHtml(r: RequirementResult, o: EvidenceOptions = {}): string {
  const blocked = r.blockedBy?.length
    ? `<div class="reason">blocked by ${r.blockedBy.map((id) => `<a href="#${esc(id)}"><code>${esc(id)}</code></a>`).join(', ')}</div>`
    : '';
  const reason = (r.reason !== undefined ? `<div class="reason">${esc(r.reason)}</div>` : '') + blocked;
  const errata = r.errata !== undefined ? `<div class="errata"><span class="label">Errata</span> ${esc(r.errata)}</div>` : '';
  return (
    `<tr class="req" id="${esc(r.id)}" data-status="${esc(r.status)}" data-level="${esc(r.level)}" data-section="${esc(r.section)}" data-observer="${esc(r.observer)}" data-search="${esc(searchText(r))}">` +
    `<td class="id"><a href="#${esc(r.id)}">${esc(r.id)}</a></td>` +
    `<td><span class="level lv-${token(r.level)}">${esc(r.level)}</span></td>` +
    `<td class="observer">${esc(r.observer)}</td>` +
    `<td>${badge(r.status)}${r.unproven ? ` <span class="unproven" title="${esc(UNPROVEN_HELP)}">unproven</span>` : ''}</td>` +
    `<td class="text">${esc(r.text)}${reason}${errata}${detailsHtml(r, o)}</td></tr>`
  );
}

function tableHtml(rows: readonly RequirementResult[], o: EvidenceOptions): string {
  return (
    '<table class="matrix"><colgroup><col class="c-id"><col class="c-level"><col class="c-observer"><col class="c-status"><col class="c-text"></colgroup>' +
    '<thead><tr><th>Requirement</th><th>Level</th><th>Observer</th><th>Status</th><th>Text</th></tr></thead>' +
    `<tbody>${[...rows]
      .sort(byStatus)
      .map((r) => rowHtml(r, o))
      .join('')}</tbody></table>`
  );
}

/** Every failed, erred, blocked, warned or uncovered requirement, worst first, at the top of the page. */
export function attentionHtml(rows: readonly RequirementResult[], o: EvidenceOptions = {}): string {
  if (rows.length === 0) return '';
  return `<section class="attention" id="attention"><h2>Needs attention <span class="muted">(${rows.length})</span></h2>${tableHtml(rows, o)}</section>`;
}

function countsText(rows: readonly RequirementResult[]): string {
  return RANK.map((s) => [s, rows.filter((r) => r.status === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s.replace('-', ' ')}`)
    .join(' · ');
}

/** One spec section, folded: its heading says what is inside; a filter or a link opens it. */
export function sectionHtml(
  section: string,
  title: string | undefined,
  rows: readonly RequirementResult[],
  o: EvidenceOptions = {},
): string {
  const heading = `<span class="secno">${section.startsWith('P') ? 'Profile ' : '&sect;'}${esc(section)}</span> ${esc(title ?? '')}`;
  return (
    `<details class="spec-section" data-section="${esc(section)}"><summary><h2>${heading}</h2><span class="sec-counts">${esc(countsText(rows))}</span></summary>` +
    `${tableHtml(rows, o)}</details>`
  );
}
