// The latency histogram stays within one bucket of the exact percentiles; the token bucket keeps its rate.
// Replay a failure with WFMCK_SEED=<seed> WFMCK_PATH=<path> (fast-check prints both).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BUCKETS, Histogram, bucketOf } from '../../simulators/fleet/histogram.ts';
import { tokenBucket } from '../../simulators/fleet/rate-limit.ts';
import { FleetStats } from '../../simulators/fleet/stats.ts';

const replay = {
  seed: process.env.WFMCK_SEED === undefined ? undefined : Number(process.env.WFMCK_SEED),
  path: process.env.WFMCK_PATH,
  numRuns: 200,
};

test('p50/p95/p99 are within one bucket of the exact nearest-rank percentiles', () => {
  const latency = fc.oneof(
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.double({ min: 0, max: 60_000, noNaN: true }),
    fc.integer({ min: 1, max: 2000 }),
  );
  fc.assert(
    fc.property(fc.array(latency, { minLength: 1, maxLength: 500 }), (values) => {
      const h = new Histogram();
      for (const v of values) h.record(v);
      const sorted = [...values].sort((a, b) => a - b);
      for (const p of [0.5, 0.95, 0.99]) {
        const exact = sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1]!;
        const got = h.percentile(p);
        assert.ok(Math.abs(bucketOf(got) - bucketOf(exact)) <= 1, `p${p * 100}: exact ${exact}, got ${got}`);
      }
    }),
    replay,
  );
});

test('the histogram has a fixed size whatever it records', () => {
  const h = new Histogram();
  for (let i = 0; i < 200_000; i++) h.record((i % 977) * 0.37);
  assert.equal(h.count, 200_000);
  assert.ok(BUCKETS < 1000);
  assert.equal(bucketOf(1e12), BUCKETS - 1);
  assert.equal(bucketOf(-3), 0);
  assert.deepEqual(new Histogram().summary(), { count: 0, minMs: 0, meanMs: 0, p50Ms: 0, p95Ms: 0, p99Ms: 0, maxMs: 0 });
});

test('token bucket: a burst goes at once, then one request per interval', async () => {
  let now = 0;
  const bucket = tokenBucket(10, 3, () => now);
  const waits: number[] = [];
  for (let i = 0; i < 6; i++) {
    const began = performance.now();
    await bucket.take();
    waits.push(performance.now() - began);
  }
  assert.ok(
    waits.slice(0, 3).every((w) => w < 20),
    `burst of 3 immediate: ${waits}`,
  );
  assert.ok(waits[3]! >= 80 && waits[4]! >= 80, `then ~100 ms apart: ${waits}`);
  now = 10_000;
  const began = performance.now();
  await bucket.take();
  assert.ok(performance.now() - began < 20, 'a quiet spell refills the bucket');
});

test('token bucket: rate 0 never waits; an aborted wait rejects with the reason', async () => {
  await tokenBucket(0).take();
  const bucket = tokenBucket(1, 1);
  await bucket.take();
  const controller = new AbortController();
  const pending = bucket.take(controller.signal);
  controller.abort(new Error('stop'));
  await assert.rejects(pending, /stop/);
});

test('stats: aborts are not errors; transport errors and unexpected answers are evidence', () => {
  const stats = new FleetStats(2);
  stats.record({ type: 'transport-error', deviceId: 'd1', endpoint: 'status', code: 'WFMCK_E_ABORTED', message: 'aborted' });
  stats.record({ type: 'transport-error', deviceId: 'd1', endpoint: 'status', code: 'WFMCK_E_TIMEOUT', message: 'timeout after 5000 ms' });
  for (const s of [500, 502, 503])
    stats.record({ type: 'response', deviceId: 'd2', endpoint: 'onboarding', status: s, latencyMs: 3, expected: false });
  stats.record({ type: 'response', deviceId: 'd3', endpoint: 'capabilities.put', status: 201, latencyMs: 2, expected: true });
  stats.record({ type: 'deployment', deviceId: 'd3', deploymentId: 'x', state: 'installed', adoptedManifestVersion: 1 });
  const t = stats.totals();
  assert.deepEqual(t.requests, { total: 6, expected: 1, unexpected: 3, transportErrors: 1, aborted: 1 });
  assert.deepEqual(t.errors, { WFMCK_E_TIMEOUT: 1, '500': 1, '502': 1, '503': 1 });
  assert.equal(t.unexpected.length, 2, 'bounded list');
  assert.equal(t.unexpectedNotListed, 2);
  assert.equal(t.deviceIdsCreated, 1);
  assert.deepEqual(t.deploymentReports, { installed: 1 });
  assert.equal(t.latency.onboarding!.count, 3);
});

test('a deviceId counts once as held: on its first 201, or on a first 200 from a WFM that already held it (a cached identity)', () => {
  const stats = new FleetStats();
  const put = (subject: string | undefined, status: number) =>
    stats.record({
      type: 'response',
      deviceId: 'gw',
      endpoint: 'capabilities.put',
      status,
      latencyMs: 1,
      expected: true,
      ...(subject && { subject }),
    });
  put('gw', 201);
  put('gw', 200); // an update of a held document
  put('gw/child-1', 200); // held from an earlier run
  put('gw/child-1', 201); // never twice
  put('gw/child-2', 422);
  assert.equal(stats.totals().deviceIdsCreated, 2);
  put(undefined, 201); // an event without a subject (the bench's fake devices) counts its 201s
  put(undefined, 200);
  assert.equal(stats.totals().deviceIdsCreated, 3);
});
