// The fleet's request rate: one token bucket (as GCRA, O(1) state) shared by every device, applied per request.
import { sleep } from '../transport/retry.ts';
import type { Transport } from '../transport/types.ts';

export interface RateLimiter {
  /** Resolves when one request may go; rejects with the signal's reason if it is aborted first. */
  take(signal?: AbortSignal): Promise<void>;
}

const UNLIMITED: RateLimiter = { take: () => Promise.resolve() };

/** `rate` requests per second on average, at most `burst` at once after a quiet spell; rate 0 = no limit. */
export function tokenBucket(rate: number, burst = 1, now: () => number = () => performance.now()): RateLimiter {
  if (rate <= 0) return UNLIMITED;
  const interval = 1000 / rate;
  const tolerance = (Math.max(1, burst) - 1) * interval;
  // Theoretical arrival time of the next request: the bucket is full when it lies in the past.
  let tat = -Infinity;
  return {
    take(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      const t = now();
      tat = Math.max(tat, t);
      const delay = tat - tolerance - t;
      tat += interval;
      return delay <= 0 ? Promise.resolve() : sleep(delay, signal);
    },
  };
}

/** Every request of `inner` waits for a token first. */
export function rateLimited(inner: Transport, limiter: RateLimiter): Transport {
  // No limit, no wrapper: an async layer per request is a promise and a microtask for nothing.
  if (limiter === UNLIMITED) return inner;
  return {
    request: async (opts) => {
      await limiter.take(opts.signal);
      return inner.request(opts);
    },
    close: () => inner.close(),
  };
}
