// One exchange of evidence as a person reads it: the request line, then request and response side by side.
import type { Exchange } from '../../protocol/exchange.ts';
import { esc } from './escape.ts';

function headerBlock(headers: Record<string, string> | undefined): string {
  const lines = Object.entries(headers ?? {}).map(([k, v]) => `${k}: ${v}`);
  return lines.length > 0 ? lines.join('\n') : '(no headers)';
}

/** JSON bodies indented for reading; anything else (or a trimmed JSON body) exactly as received. */
export function readableBody(body: string): string {
  if (!/^\s*[[{]/.test(body)) return body;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function pane(title: string, headers: Record<string, string> | undefined, body: string | undefined): string {
  return `<div class="pane"><div class="pane-title">${title}</div>`
    + `<pre class="headers">${esc(headerBlock(headers))}</pre>`
    + (body !== undefined && body !== '' ? `<pre class="body">${esc(readableBody(body))}</pre>` : '<div class="muted">(no body)</div>')
    + '</div>';
}

/** Where a failing check stopped: the exchange's id, and what it expected when the failure says so. */
export type BrokeAt = ReadonlyMap<string, string | undefined>;

function outcome(x: Exchange, broke: boolean, expected: string | undefined): string {
  if (x.error) return `<span class="x-error">${esc(x.error.code)}</span>`;
  if (x.status === undefined) return '<span class="muted">no response</span>';
  // Coloured by what the check expected, when it said: a 200 where 201 was due is the finding, not a success.
  const cls = !broke ? 'x-status' : expected === undefined ? 'x-status x-unexpected' : expected.includes(String(x.status)) ? 'x-status x-expected' : 'x-status x-unexpected';
  return `<span class="${cls}">${esc(x.status)}</span>${broke && expected !== undefined ? ` <span class="muted">(expected ${esc(expected)})</span>` : ''}`;
}

export function exchangeHtml(x: Exchange, index: number, brokeAt: BrokeAt = new Map()): string {
  const broke = brokeAt.has(x.id);
  const response = x.error
    ? `<div class="pane"><div class="pane-title">No HTTP response</div><pre class="body">${esc(`${x.error.code}: ${x.error.message}`)}</pre></div>`
    : pane(`Response ${esc(x.status ?? '')}`, x.responseHeaders, x.responseBody);
  const attempt = x.attempt > 1 ? ` <span class="muted">attempt ${esc(x.attempt)}</span>` : '';
  const mark = broke ? ' <span class="broke">&#9873; the check failed here</span>' : '';
  return `<div class="exchange${broke ? ' x-broke' : ''}"><div class="reqline"><span class="muted">#${index + 1}</span> <b>${esc(x.method)}</b> `
    + `<span class="url">${esc(x.url)}</span> &rarr; ${outcome(x, broke, brokeAt.get(x.id))} <span class="muted">${esc(Math.round(x.durationMs))} ms</span>${attempt}${mark}</div>`
    + `<div class="panes">${pane('Request', x.requestHeaders, x.requestBody)}${response}</div></div>`;
}

export function evidenceHtml(exchanges: readonly Exchange[], brokeAt: BrokeAt = new Map()): string {
  if (exchanges.length === 0) return '';
  const n = exchanges.length;
  return `<div class="evidence"><div class="evidence-title">Evidence: ${n} exchange${n === 1 ? '' : 's'}</div>${exchanges.map((x, i) => exchangeHtml(x, i, brokeAt)).join('')}</div>`;
}
