// The matrix body: one table per spec section, one row per requirement, a <details> with tests, errors and evidence.
import type { RequirementResult, TestEntry } from '../matrix.ts';
import { esc, token } from './escape.ts';
import { evidenceHtml } from './exchanges.ts';

export function badge(status: string): string {
  return `<span class="badge st-${token(status)}">${esc(status.replace('-', ' '))}</span>`;
}

function testHtml(t: TestEntry): string {
  const head = `<div class="test-head">${badge(t.status)} <span class="test-title">${esc(t.title)}</span> `
    + `<span class="muted">${esc(t.file)}:${esc(t.line)} &middot; ${esc(t.durationMs)} ms</span></div>`;
  const reason = t.reason !== undefined ? `<div class="test-reason">${esc(t.reason)}</div>` : '';
  if (t.error === undefined) return `<div class="test">${head}${reason}</div>`;
  const e = t.error;
  const replayed = [e.seed !== undefined && `seed ${esc(e.seed)}`, e.path !== undefined && `path ${esc(e.path)}`].filter(Boolean).join(', ');
  const replay = e.replay !== undefined
    ? `<div class="replay"><span class="label">Replay${replayed ? ` (${replayed})` : ''}</span><code>${esc(e.replay)}</code></div>`
    : '';
  return `<div class="test">${head}${reason}<pre class="error">${esc(e.message)}</pre>${replay}</div>`;
}

function failingCount(r: RequirementResult): number {
  return r.tests.filter((t) => t.status === 'fail' || t.status === 'error').length;
}

function detailsHtml(r: RequirementResult): string {
  if (r.tests.length === 0) return '';
  const failing = failingCount(r);
  const n = r.tests.length;
  const exchanges = r.evidence?.length ?? 0;
  const label = failing > 0
    ? `${failing} of ${n} test${n === 1 ? '' : 's'} failed${exchanges > 0 ? `, ${exchanges} exchange${exchanges === 1 ? '' : 's'} of evidence` : ''}`
    : `${n} test${n === 1 ? '' : 's'}`;
  // Failures first: the reader opened this to see what went wrong.
  const tests = [...r.tests].sort((a, b) => Number(b.error !== undefined) - Number(a.error !== undefined));
  return `<details class="${failing > 0 ? 'failure' : 'tests'}"><summary>${esc(label)}</summary>`
    + `${tests.map(testHtml).join('')}${evidenceHtml(r.evidence ?? [])}</details>`;
}

function searchText(r: RequirementResult): string {
  return [r.id, r.text, r.reason, r.errata, ...r.tests.map((t) => t.title)].filter(Boolean).join(' ').toLowerCase();
}

export function rowHtml(r: RequirementResult): string {
  const reason = r.reason !== undefined ? `<div class="reason">${esc(r.reason)}</div>` : '';
  const errata = r.errata !== undefined ? `<div class="errata"><span class="label">Errata</span> ${esc(r.errata)}</div>` : '';
  return `<tr class="req" id="${esc(r.id)}" data-status="${esc(r.status)}" data-level="${esc(r.level)}" data-section="${esc(r.section)}" data-observer="${esc(r.observer)}" data-search="${esc(searchText(r))}">`
    + `<td class="id"><a href="#${esc(r.id)}">${esc(r.id)}</a></td>`
    + `<td><span class="level lv-${token(r.level)}">${esc(r.level)}</span></td>`
    + `<td class="observer">${esc(r.observer)}</td>`
    + `<td>${badge(r.status)}</td>`
    + `<td class="text">${esc(r.text)}${reason}${errata}${detailsHtml(r)}</td></tr>`;
}

export function sectionHtml(section: string, title: string | undefined, rows: readonly RequirementResult[]): string {
  const heading = `<span class="secno">${section.startsWith('P') ? 'Profile ' : '&sect;'}${esc(section)}</span> ${esc(title ?? '')}`;
  return `<section class="spec-section" data-section="${esc(section)}"><h2>${heading}</h2>`
    + '<table class="matrix"><colgroup><col class="c-id"><col class="c-level"><col class="c-observer"><col class="c-status"><col class="c-text"></colgroup>'
    + '<thead><tr><th>Requirement</th><th>Level</th><th>Observer</th><th>Status</th><th>Text</th></tr></thead>'
    + `<tbody>${rows.map(rowHtml).join('')}</tbody></table></section>`;
}
