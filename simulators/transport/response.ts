// The HttpResponse a caller gets: the capped bytes, lower-case headers, and the exchange that shows them.
import { TransportError, type Exchange, type HttpResponse } from './types.ts';

const utf8 = new TextDecoder();

/**
 * `exchange` may be given as a function: it is then made on first read and kept (a fleet reads it only for an
 * unexpected answer, so most of its requests never pay for the record's id, time stamp and redacted headers). A class,
 * so a response carries no closures of its own.
 */
export function httpResponse(
  status: number,
  headers: Record<string, string>,
  body: Uint8Array,
  exchange: Exchange | (() => Exchange),
  durationMs?: number,
): HttpResponse {
  return new Response(status, headers, body, exchange, durationMs ?? (typeof exchange === 'function' ? undefined : exchange.durationMs));
}

class Response implements HttpResponse {
  #exchange: Exchange | undefined;
  #make: (() => Exchange) | undefined;

  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: Uint8Array,
    exchange: Exchange | (() => Exchange),
    readonly durationMs: number | undefined,
  ) {
    if (typeof exchange === 'function') this.#make = exchange;
    else this.#exchange = exchange;
  }

  get exchange(): Exchange {
    if (this.#exchange === undefined) {
      this.#exchange = this.#make!();
      this.#make = undefined;
    }
    return this.#exchange;
  }

  set exchange(value: Exchange) {
    this.#exchange = value;
    this.#make = undefined;
  }

  text(): string {
    return utf8.decode(this.body);
  }

  json<T>(): T {
    try {
      return JSON.parse(utf8.decode(this.body)) as T;
    } catch (e) {
      throw new TransportError('WFMCK_E_PROTOCOL', `HTTP ${this.status} body is not JSON: ${(e as Error).message}`, this.exchange);
    }
  }
}

/** undici's header record with repeated fields joined (RFC 9110 §5.3); names are already lower case. */
export function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
