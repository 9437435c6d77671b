// The HttpResponse a caller gets: the capped bytes, lower-case headers, and the exchange that shows them.
import { TransportError, type Exchange, type HttpResponse } from './types.ts';

const utf8 = new TextDecoder();

export function httpResponse(status: number, headers: Record<string, string>, body: Uint8Array, exchange: Exchange): HttpResponse {
  return {
    status,
    headers,
    body,
    exchange,
    text: () => utf8.decode(body),
    json<T>(): T {
      try {
        return JSON.parse(utf8.decode(body)) as T;
      } catch (e) {
        throw new TransportError('WFMCK_E_PROTOCOL', `HTTP ${status} body is not JSON: ${(e as Error).message}`, exchange);
      }
    },
  };
}

/** undici's header record with repeated fields joined (RFC 9110 §5.3); names are already lower case. */
export function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
