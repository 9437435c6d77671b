// The top of the report: what went wrong, one line per root cause, most blocking first. Each failed requirement with
// its one-line reason, the requirements that failed on the same exchange, and those its failure blocked ("CAP-PUT-201
// failed; 19 requirements blocked by it"), blocks whose cause did not fail in this run, and kit errors. A reader sees why without a click; each id links to its row.
import type { ConformanceReport } from '../conformance-json.ts';
import type { RequirementResult } from '../matrix.ts';
import { esc } from './escape.ts';
import { badge } from './rows.ts';
import { failuresOf, listedCauses } from '../causes.ts';
import { outageHeadline } from '../outage-declared.ts';
import { kitErrorCauses, kitErrorHeadline } from '../kit-error-causes.ts';

function link(id: string): string {
  return `<a href="#${esc(id)}"><code>${esc(id)}</code></a>`;
}

function blockedLine(blocks: readonly string[], what: string): string {
  if (blocks.length === 0) return '';
  return `<div class="blocks">${blocks.length} requirement${blocks.length === 1 ? '' : 's'} blocked by ${what}: ${blocks.map(link).join(', ')}</div>`;
}

function failedItem(r: RequirementResult, also: readonly RequirementResult[], blocks: readonly string[]): string {
  const same =
    also.length > 0
      ? `<div class="blocks">the same exchange failed ${also.map((q) => `${link(q.id)} <span class="muted">${esc(q.level)}</span>`).join(', ')} too</div>`
      : '';
  return (
    `<li class="cause">${badge(r.status)} ${link(r.id)} <span class="muted">${esc(r.level)}</span> ${esc(r.text)}` +
    (r.reason ? `<div class="cause-reason">${esc(r.reason)}</div>` : '') +
    same +
    blockedLine(blocks, 'it') +
    '</li>'
  );
}

export function causesHtml(
  report: Pick<ConformanceReport, 'requirements' | 'rootCauses'> & Partial<Pick<ConformanceReport, 'outages'>>,
): string {
  const byId = new Map(report.requirements.map((r) => [r.id, r]));
  const dark = new Set((report.outages ?? []).flatMap((o) => o.requirements));
  const items = (report.outages ?? []).map(
    (o) =>
      `<li class="cause">${badge(o.stopped ? 'blocked' : 'fail')} ${esc(outageHeadline(o))}` +
      `<div class="blocks">${o.requirements.map(link).join(', ')}</div></li>`,
  );
  // Most blocking first; failures of one exchange are one cause (reports/causes.ts).
  for (const c of listedCauses(report)) {
    const [r, ...also] = failuresOf(c, byId, dark);
    if (r !== undefined) {
      items.push(failedItem(r, also, c.blocks));
      continue;
    }
    if (c.blocks.length === 0) continue;
    const why =
      c.status === 'not-run'
        ? 'which this run did not judge'
        : `which is ${c.status} in its own check (the target answered it and the setup differently)`;
    items.push(`<li class="cause">${badge('blocked')} ${blockedLine(c.blocks, `${link(c.id)}, ${esc(why)}`)}</li>`);
  }
  // Kit errors by cause: a hook that is not wired is one item, however many checks needed it.
  for (const c of kitErrorCauses(report.requirements)) {
    items.push(
      `<li class="cause">${badge('error')} kit error, not the target's: ${esc(kitErrorHeadline(c))}` +
        `<div class="blocks">requirements without a verdict: ${c.requirements.map(link).join(', ')}</div></li>`,
    );
  }
  if (items.length === 0) return '';
  return `<section class="causes" id="causes"><h2>Findings by cause</h2><ul>${items.join('')}</ul></section>`;
}
