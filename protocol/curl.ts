// One exchange of evidence as a shell command that sends the request again, with comments for what it cannot
// reproduce (a trimmed or binary body, a signature bound to its time). Secrets never appear: the exchange is already
// redacted, and a CA travels by path.
import type { Exchange } from './exchange.ts';
import { redactHeaders, redactUrl, trimInfo } from './evidence.ts';

/** Headers curl computes itself; replaying them would only conflict. */
const CURL_SKIPS = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

export function curlOf(x: Exchange, opts: { cacert?: string } = {}): string {
  const notes = [`# wfmck exchange ${x.id}${x.testId ? ` (test ${x.testId})` : ''}, attempt ${x.attempt}: ${outcome(x)}`];
  const method = x.method === 'HEAD' ? '--head' : `-X ${x.method}`;
  const lines = [`curl -sS -i ${method} ${quote(redactUrl(x.url))}`];
  if (opts.cacert) lines.push(`--cacert ${quote(opts.cacert)}`);
  for (const [name, value] of Object.entries(redactHeaders(x.requestHeaders))) {
    if (!CURL_SKIPS.has(name.toLowerCase())) lines.push(`-H ${quote(`${name}: ${value}`)}`);
  }
  const body = x.requestBody;
  if (body !== undefined && /^<\d+ bytes binary>$/.test(body)) notes.push(`# request body: ${body}, not reproduced here`);
  else if (body !== undefined) {
    const trimmed = trimInfo(body);
    if (trimmed) notes.push(`# request body trimmed: only the first ${trimmed.shown} of ${trimmed.total} bytes are below`);
    lines.push(`--data-binary ${quote(trimmed ? body.slice(0, body.length - trimmed.markLength) : body)}`);
  }
  if (x.requestHeaders['signature']) notes.push('# the signature covers its `created` time: the server may refuse it as too old');
  return `${notes.join('\n')}\n${lines.join(' \\\n  ')}`;
}

function outcome(x: Exchange): string {
  if (x.error) return `${x.error.code} ${x.error.message}`;
  if (x.awaiting) return `no answer yet after ${Math.round(x.durationMs)} ms (deadline ${x.awaiting.deadlineMs} ms)`;
  return x.status === undefined ? 'no answer' : `HTTP ${x.status} in ${Math.round(x.durationMs)} ms`;
}

/** POSIX shell single quotes. */
function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
