// The record of exchanges a run made: a ring buffer (fleets must not grow memory without bound) and curl replays.
import type { Exchange } from './types.ts';
import { DEFAULT_TRIM_BYTES, redactBody, redactHeaders, redactUrl, retrim, trimInfo } from './evidence.ts';

export const DEFAULT_MAX_EXCHANGES = 1000;

/** Headers curl computes itself; replaying them would only conflict. */
const CURL_SKIPS = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

export class Transcript {
  readonly maxExchanges: number;
  readonly trimBytes: number;
  private readonly ring: Exchange[] = [];
  private next = 0;
  /** Exchanges dropped because the ring was full. */
  dropped = 0;

  constructor(opts: { maxExchanges?: number; trimBytes?: number } = {}) {
    this.maxExchanges = Math.max(1, opts.maxExchanges ?? DEFAULT_MAX_EXCHANGES);
    this.trimBytes = Math.max(0, opts.trimBytes ?? DEFAULT_TRIM_BYTES);
  }

  /** Keeps a redacted, trimmed copy; the oldest exchange goes once the ring is full. */
  record(x: Exchange): void {
    const copy: Exchange = {
      ...x,
      url: redactUrl(x.url),
      requestHeaders: redactHeaders(x.requestHeaders),
      requestBody: sanitise(x.requestBody, this.trimBytes),
      ...(x.responseHeaders ? { responseHeaders: redactHeaders(x.responseHeaders) } : {}),
      responseBody: sanitise(x.responseBody, this.trimBytes),
    };
    if (copy.requestBody === undefined) delete copy.requestBody;
    if (copy.responseBody === undefined) delete copy.responseBody;
    if (this.ring.length < this.maxExchanges) this.ring.push(copy);
    else {
      this.ring[this.next] = copy;
      this.dropped++;
    }
    this.next = (this.next + 1) % this.maxExchanges;
  }

  /** Oldest first. */
  all(): Exchange[] {
    return this.ring.length < this.maxExchanges ? [...this.ring] : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
  }

  forTest(testId: string): Exchange[] {
    return this.all().filter((x) => x.testId === testId);
  }

  /** A shell command that sends the request again, with comments for what it cannot reproduce. */
  toCurl(x: Exchange, opts: { cacert?: string } = {}): string {
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
}

function sanitise(body: string | undefined, trimBytes: number): string | undefined {
  return body === undefined ? undefined : retrim(redactBody(body), trimBytes);
}

function outcome(x: Exchange): string {
  if (x.error) return `${x.error.code} ${x.error.message}`;
  return x.status === undefined ? 'no answer' : `HTTP ${x.status} in ${Math.round(x.durationMs)} ms`;
}

/** POSIX shell single quotes. */
function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
