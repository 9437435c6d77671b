// When a request may be sent again and how long to wait first: exponential backoff with full jitter, Retry-After.

export interface RetryPolicy {
  /** Total attempts including the first; 1 means never retry. */
  attempts: number;
  baseDelayMs: number;
  /** Caps every wait, the one a Retry-After asks for included. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({ attempts: 3, baseDelayMs: 100, maxDelayMs: 2_000 });

/** RFC 9110 §9.2.2: a retry of these cannot do twice what was meant once. POST and PATCH are never among them. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Statuses that say "try again later" rather than "no". */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** The caller asked for retries and the method allows them (a POST is never retried, whatever was asked). */
export function mayRetry(method: string, mode: 'never' | 'idempotent' | undefined): boolean {
  return mode === 'idempotent' && IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/** Full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"): uniform in [0, min(max, base * 2^(n-1))). */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * RFC 9110 §10.2.3 Retry-After as milliseconds from `now`: delta-seconds or an HTTP-date, capped at `capMs`;
 * undefined when absent or unreadable.
 */
export function retryAfterMs(header: string | undefined, capMs: number, now: number = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    // An HTTP-date names its day and month; V8 would read bare numbers like "-1" as years.
    const at = /[A-Za-z]{3}/.test(value) ? Date.parse(value) : NaN;
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return Math.min(capMs, Math.max(0, ms));
}

/** The wait before retry number `retry` (1-based): the server's Retry-After when it gave one, else backoff. */
export function nextDelayMs(retry: number, policy: RetryPolicy, retryAfter?: string, random?: () => number): number {
  return retryAfterMs(retryAfter, policy.maxDelayMs) ?? backoffDelayMs(retry, policy, random);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
