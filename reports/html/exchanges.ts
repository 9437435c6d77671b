// One exchange of evidence as a person reads it: the request line, then request and response side by side.
import type { Exchange } from '../../protocol/exchange.ts';
import { curlOf } from '../../protocol/curl.ts';
import { esc } from './escape.ts';

export interface EvidenceOptions {
  /** The CA file a reproduction's curl trusts (`--cacert`, a path: secrets never travel in the page). */
  cacert?: string;
}

/** A body longer than this, or one holding a certificate, is folded behind its first line (with a copy button). */
const FOLD_CHARS = 1200;
const CERTIFICATE = /-----BEGIN [A-Z ]+-----|"(?:certificate|x5c|certificateChainPem)"\s*:|[A-Za-z0-9+/=]{400,}/;

function copyButton(): string {
  return '<button type="button" class="copy" title="copy to the clipboard">copy</button>';
}

/** A <pre> of `text`; long bodies and certificates folded, each with a copy button. */
function preHtml(cls: string, text: string): string {
  const pre = `<pre class="${cls}">${esc(text)}</pre>${copyButton()}`;
  if (text.length <= FOLD_CHARS && !CERTIFICATE.test(text)) return `<div class="copyable">${pre}</div>`;
  const first = text.split('\n', 1)[0]!.slice(0, 100);
  return `<details class="fold copyable"><summary>${esc(text.length)} characters: <code>${esc(first)}</code>&hellip;</summary>${pre}</details>`;
}

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
  return (
    `<div class="pane"><div class="pane-title">${title}</div>` +
    `<pre class="headers">${esc(headerBlock(headers))}</pre>` +
    (body !== undefined && body !== '' ? preHtml('body', readableBody(body)) : '<div class="muted">(no body)</div>') +
    '</div>'
  );
}

/** Where a failing check stopped: the exchange's id, and what it expected when the failure says so. */
export type BrokeAt = ReadonlyMap<string, string | undefined>;

function outcome(x: Exchange, broke: boolean, expected: string | undefined): string {
  if (x.error) return `<span class="x-error">${esc(x.error.code)}</span>`;
  if (x.awaiting) return `<span class="muted">no answer yet (deadline ${esc(x.awaiting.deadlineMs)} ms)</span>`;
  if (x.status === undefined) return '<span class="muted">no response</span>';
  // Coloured by what the check expected, when it said: a 200 where 201 was due is the finding, not a success.
  const cls = !broke
    ? 'x-status'
    : expected === undefined
      ? 'x-status x-unexpected'
      : expected.includes(String(x.status))
        ? 'x-status x-expected'
        : 'x-status x-unexpected';
  return `<span class="${cls}">${esc(x.status)}</span>${broke && expected !== undefined ? ` <span class="muted">(expected ${esc(expected)})</span>` : ''}`;
}

/** The request again as curl, open where the check failed. */
function curlHtml(x: Exchange, broke: boolean, o: EvidenceOptions): string {
  return `<details class="curl copyable"${broke ? ' open' : ''}><summary>Reproduce with curl</summary><pre class="curl-cmd">${esc(curlOf(x, o.cacert ? { cacert: o.cacert } : {}))}</pre>${copyButton()}</details>`;
}

export function exchangeHtml(x: Exchange, index: number, brokeAt: BrokeAt = new Map(), o: EvidenceOptions = {}): string {
  const broke = brokeAt.has(x.id);
  const response = x.error
    ? `<div class="pane"><div class="pane-title">No HTTP response</div><pre class="body">${esc(`${x.error.code}: ${x.error.message}`)}</pre></div>`
    : pane(`Response ${esc(x.status ?? '')}`, x.responseHeaders, x.responseBody);
  const attempt = x.attempt > 1 ? ` <span class="muted">attempt ${esc(x.attempt)}</span>` : '';
  const mark = broke ? ' <span class="broke">&#9873; the check failed here</span>' : '';
  return (
    `<div class="exchange${broke ? ' x-broke' : ''}"><div class="reqline"><span class="muted">#${index + 1}</span> <b>${esc(x.method)}</b> ` +
    `<span class="url">${esc(x.url)}</span> &rarr; ${outcome(x, broke, brokeAt.get(x.id))} <span class="muted">${esc(Math.round(x.durationMs))} ms</span>${attempt}${mark}</div>` +
    `<div class="panes">${pane('Request', x.requestHeaders, x.requestBody)}${response}</div>${curlHtml(x, broke, o)}</div>`
  );
}

export function evidenceHtml(exchanges: readonly Exchange[], brokeAt: BrokeAt = new Map(), o: EvidenceOptions = {}): string {
  if (exchanges.length === 0) return '';
  const n = exchanges.length;
  return `<div class="evidence"><div class="evidence-title">Evidence: ${n} exchange${n === 1 ? '' : 's'}</div>${exchanges.map((x, i) => exchangeHtml(x, i, brokeAt, o)).join('')}</div>`;
}
