// Bounds on every exchange: a deadline and a response size cap enforced while the body streams in.

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** The body passed the cap; `announced` when the Content-Length alone gave it away, before any byte was read. */
export class ResponseTooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly received: number,
    readonly announced?: number,
  ) {
    super(
      announced !== undefined
        ? `Content-Length ${announced} exceeds the ${limit}-byte response cap`
        : `response body passed the ${limit}-byte cap (${received} bytes read, the rest refused)`,
    );
  }
}

/** The body ended before the bytes its Content-Length announced arrived. */
export class ResponseTruncated extends Error {
  constructor(
    readonly announced: number,
    readonly received: number,
  ) {
    super(`response body ended after ${received} of the ${announced} bytes its Content-Length announced`);
  }
}

/** Statuses and methods whose responses carry no body whatever their Content-Length says (RFC 9110 §6.4.1). */
export function hasNoBody(method: string, status: number): boolean {
  return method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);
}

export function announcedLength(headers: Record<string, string>): number | undefined {
  const raw = headers['content-length'];
  return raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw) : undefined;
}
