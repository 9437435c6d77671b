// The HttpResponse a caller gets: the capped bytes, lower-case headers, and the exchange that shows them.
import { util } from 'undici';
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

/**
 * undici's raw header list (name, value, name, value...) as one record: names lower case (undici's own table), values
 * latin1 as undici decodes them, repeated fields joined (RFC 9110 §5.3). One pass and one object per answer, where
 * util.parseHeaders and a flattening copy made two.
 */
export function headersOf(raw: (Buffer | string)[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = util.headerNameToString(raw[i]!);
    const value = raw[i + 1]!.toString('latin1');
    if (Object.hasOwn(out, name)) out[name] += `, ${value}`;
    // `__proto__` set by assignment would replace the record's prototype, not add a field.
    else if (name === '__proto__') Object.defineProperty(out, name, { value, enumerable: true, configurable: true, writable: true });
    else out[name] = value;
  }
  return out;
}
