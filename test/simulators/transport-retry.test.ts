// The retry policy as pure rules: which requests may retry, backoff bounds with full jitter, Retry-After reading.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { backoffDelayMs, mayRetry, nextDelayMs, retryAfterMs, sleep } from '../../simulators/transport/retry.ts';

const seed = process.env.WFMCK_SEED ? Number(process.env.WFMCK_SEED) : undefined;
const run = (numRuns: number) => ({ numRuns, ...(seed !== undefined ? { seed } : {}) });

const policy = fc.record({
  attempts: fc.integer({ min: 1, max: 10 }),
  baseDelayMs: fc.integer({ min: 0, max: 10_000 }),
  maxDelayMs: fc.integer({ min: 0, max: 60_000 }),
});

test('only GET, HEAD, PUT, DELETE and OPTIONS retry, and only when the caller asks', () => {
  for (const m of ['GET', 'head', 'PUT', 'DELETE', 'OPTIONS']) assert.equal(mayRetry(m, 'idempotent'), true, m);
  for (const m of ['POST', 'PATCH', 'CONNECT']) assert.equal(mayRetry(m, 'idempotent'), false, m);
  for (const m of ['GET', 'PUT']) {
    assert.equal(mayRetry(m, 'never'), false);
    assert.equal(mayRetry(m, undefined), false);
  }
});

test('full jitter: every delay lies in [0, min(max, base * 2^(n-1)))', () => {
  fc.assert(
    fc.property(policy, fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (p, n, r) => {
      const ceiling = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** (n - 1));
      const d = backoffDelayMs(n, p, () => r);
      return d >= 0 && Number.isInteger(d) && (ceiling === 0 ? d === 0 : d < ceiling);
    }),
    run(500),
  );
});

test('the ceiling doubles per retry until maxDelayMs', () => {
  const p = { attempts: 5, baseDelayMs: 100, maxDelayMs: 1000 };
  const top = (n: number) => backoffDelayMs(n, p, () => 0.999999);
  assert.deepEqual([1, 2, 3, 4, 5, 6].map(top), [99, 199, 399, 799, 999, 999]);
  assert.equal(
    backoffDelayMs(3, p, () => 0),
    0,
  );
});

test('Retry-After: delta-seconds and HTTP-date, never negative, never above the cap; garbage ignored', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.equal(retryAfterMs('2', 10_000, now), 2000);
  assert.equal(retryAfterMs('3600', 10_000, now), 10_000);
  assert.equal(retryAfterMs('Wed, 01 Jan 2025 00:00:05 GMT', 10_000, now), 5000);
  assert.equal(retryAfterMs('Tue, 31 Dec 2024 23:00:00 GMT', 10_000, now), 0);
  assert.equal(retryAfterMs('soon', 10_000, now), undefined);
  assert.equal(retryAfterMs('-1', 10_000, now), undefined);
  assert.equal(retryAfterMs(undefined, 10_000, now), undefined);
  fc.assert(
    fc.property(fc.nat(), fc.nat({ max: 100_000 }), (seconds, cap) => {
      const ms = retryAfterMs(String(seconds), cap, now)!;
      return ms >= 0 && ms <= cap;
    }),
    run(300),
  );
});

test('a Retry-After replaces the backoff; without one the backoff applies', () => {
  const p = { attempts: 3, baseDelayMs: 100, maxDelayMs: 5000 };
  assert.equal(
    nextDelayMs(1, p, '1', () => 0),
    1000,
  );
  assert.equal(
    nextDelayMs(1, p, undefined, () => 0.5),
    50,
  );
});

test('sleep rejects as soon as its signal aborts', async () => {
  const controller = new AbortController();
  const started = performance.now();
  setTimeout(() => controller.abort(new Error('stop')), 10);
  await assert.rejects(sleep(5000, controller.signal), /stop/);
  assert.ok(performance.now() - started < 1000);
});
