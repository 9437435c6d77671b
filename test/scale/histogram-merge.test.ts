// Latency histograms merge exactly: the shards' histograms, through fleet-summary.json and back, merged, answer
// every percentile as the histogram of all the values would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Histogram } from '../../simulators/fleet/histogram.ts';
import { fcOptions } from '../support/fc.ts';

/** Latencies on a microsecond grid (what summaries round to), from 0 to 10 minutes. */
const latency = fc.integer({ min: 0, max: 600_000_000 }).map((us) => us / 1000);

function histogramOf(values: number[]): Histogram {
  const h = new Histogram();
  for (const v of values) h.record(v);
  return h;
}

test('merging the shards of any split of the values gives the histogram of all of them', () => {
  fc.assert(
    fc.property(fc.array(fc.array(latency, { maxLength: 200 }), { minLength: 1, maxLength: 5 }), (parts) => {
      const merged = new Histogram();
      for (const part of parts) merged.merge(Histogram.fromSummary(JSON.parse(JSON.stringify(histogramOf(part).mergeableSummary()))));
      const direct = histogramOf(parts.flat()).mergeableSummary();
      const { meanMs, sumMs, ...exact } = merged.mergeableSummary();
      const { meanMs: directMean, sumMs: directSum, ...directExact } = direct;
      assert.deepEqual(exact, directExact);
      // Each side rounds to the microsecond once more than the other, and 0.001 itself is not exact in binary floating
      // point (498191.78 - 498191.779 > 0.001): allow one rounding step per shard plus a hair.
      const step = 0.001 + 1e-6;
      assert.ok(
        Math.abs(meanMs - directMean) <= step && Math.abs(sumMs! - directSum!) <= step * parts.length,
        'sums differ by rounding only',
      );
    }),
    fcOptions(200),
  );
});

test('a summary whose buckets do not add up to its count, or that has none, is refused', () => {
  const s = histogramOf([1, 2, 3]).mergeableSummary();
  assert.throws(() => Histogram.fromSummary({ ...s, count: 4 }), /hold 3 values, the summary says 4/);
  assert.throws(() => Histogram.fromSummary({ ...s, buckets: [[10_000, 3]] }), /not one of this histogram's/);
  const { buckets: _b, ...old } = s;
  assert.throws(() => Histogram.fromSummary(old), /too old to merge/);
});
