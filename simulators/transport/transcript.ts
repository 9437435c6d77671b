// The record of exchanges a run made: a ring buffer (fleets must not grow memory without bound) and curl replays.
import type { Exchange } from './types.ts';
import { DEFAULT_TRIM_BYTES, redactBody, redactHeaders, redactUrl, retrim } from '../../protocol/evidence.ts';
import { curlOf } from '../../protocol/curl.ts';

export const DEFAULT_MAX_EXCHANGES = 1000;

export class Transcript {
  readonly maxExchanges: number;
  readonly trimBytes: number;
  private readonly ring: Exchange[] = [];
  private next = 0;
  /** Exchanges dropped because the ring was full. */
  dropped = 0;
  /** Sent and not answered yet, with their deadlines: evidence taken meanwhile (a check out of time) shows them. */
  private readonly waiting = new Map<Exchange, number>();

  constructor(opts: { maxExchanges?: number; trimBytes?: number } = {}) {
    this.maxExchanges = Math.max(1, opts.maxExchanges ?? DEFAULT_MAX_EXCHANGES);
    this.trimBytes = Math.max(0, opts.trimBytes ?? DEFAULT_TRIM_BYTES);
  }

  /** Keeps a redacted, trimmed copy; the oldest exchange goes once the ring is full. */
  record(x: Exchange): void {
    const copy = this.copyOf(x);
    if (this.ring.length < this.maxExchanges) this.ring.push(copy);
    else {
      this.ring[this.next] = copy;
      this.dropped++;
    }
    this.next = (this.next + 1) % this.maxExchanges;
  }

  /** An exchange on its way (no answer yet); `settled` when it ends, answered or not (then `record` keeps it). */
  begin(x: Exchange, deadlineMs: number): { settled(): void } {
    this.waiting.set(x, deadlineMs);
    return { settled: () => void this.waiting.delete(x) };
  }

  /** The exchanges still waiting for their answer, oldest first: durationMs is the wait so far. */
  awaiting(now = Date.now()): Exchange[] {
    return [...this.waiting].map(([x, deadlineMs]) => ({
      ...this.copyOf(x),
      durationMs: Math.max(0, now - Date.parse(x.startedAt)),
      awaiting: { deadlineMs },
    }));
  }

  private copyOf(x: Exchange): Exchange {
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
    return copy;
  }

  /** Oldest first. */
  all(): Exchange[] {
    return this.ring.length < this.maxExchanges ? [...this.ring] : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
  }

  forTest(testId: string): Exchange[] {
    return this.all().filter((x) => x.testId === testId);
  }

  /** A shell command that sends the request again, with comments for what it cannot reproduce (protocol/curl.ts). */
  toCurl(x: Exchange, opts: { cacert?: string } = {}): string {
    return curlOf(x, opts);
  }
}

function sanitise(body: string | undefined, trimBytes: number): string | undefined {
  return body === undefined ? undefined : retrim(redactBody(body), trimBytes);
}
