// The top of the report: what went wrong, one line per root cause. Each failed requirement with its one-line reason
// and the requirements its failure blocked ("CAP-PUT-201 failed; 19 requirements blocked by it"), blocks whose cause
// did not fail in this run, and kit errors. A reader sees why without a click; each id links to its row.
import type { ConformanceReport } from '../conformance-json.ts';
import type { RequirementResult } from '../matrix.ts';
import { esc } from './escape.ts';
import { badge } from './rows.ts';

function link(id: string): string {
  return `<a href="#${esc(id)}"><code>${esc(id)}</code></a>`;
}

function blockedLine(blocks: readonly string[], what: string): string {
  if (blocks.length === 0) return '';
  return `<div class="blocks">${blocks.length} requirement${blocks.length === 1 ? '' : 's'} blocked by ${what}: ${blocks.map(link).join(', ')}</div>`;
}

function failedItem(r: RequirementResult, blocks: readonly string[]): string {
  return (
    `<li class="cause">${badge(r.status)} ${link(r.id)} <span class="muted">${esc(r.level)}</span> ${esc(r.text)}` +
    (r.reason ? `<div class="cause-reason">${esc(r.reason)}</div>` : '') +
    blockedLine(blocks, 'it') +
    '</li>'
  );
}

export function causesHtml(
  report: Pick<ConformanceReport, 'requirements' | 'rootCauses'> & Partial<Pick<ConformanceReport, 'outages'>>,
): string {
  const causes = new Map(report.rootCauses.map((c) => [c.id, c.blocks]));
  const dark = new Set((report.outages ?? []).flatMap((o) => o.requirements));
  const failed = report.requirements.filter(
    (r) => !dark.has(r.id) && (r.status === 'fail' || (r.status === 'warn' && r.tests.some((t) => t.status === 'fail'))),
  );
  const items = (report.outages ?? []).map(
    (o) =>
      `<li class="cause">${badge('fail')} <code>${esc(o.origin)}</code> stopped answering at ${esc(o.since)} (${esc(o.codes.join(', '))})` +
      `<div class="blocks">${o.requirements.length} requirements failed on no answer: ${o.requirements.map(link).join(', ')}</div></li>`,
  );
  items.push(...failed.map((r) => failedItem(r, causes.get(r.id) ?? [])));
  for (const c of report.rootCauses.filter((c) => !failed.some((r) => r.id === c.id))) {
    const why =
      c.status === 'not-run'
        ? 'which this run did not judge'
        : `which is ${c.status} in its own check (the target answered it and the setup differently)`;
    items.push(`<li class="cause">${badge('blocked')} ${blockedLine(c.blocks, `${link(c.id)}, ${esc(why)}`)}</li>`);
  }
  for (const r of report.requirements.filter((q) => q.status === 'error')) {
    items.push(`<li class="cause">${badge('error')} ${link(r.id)} <div class="cause-reason">${esc(r.reason ?? 'kit error')}</div></li>`);
  }
  if (items.length === 0) return '';
  return `<section class="causes" id="causes"><h2>Findings by cause</h2><ul>${items.join('')}</ul></section>`;
}
