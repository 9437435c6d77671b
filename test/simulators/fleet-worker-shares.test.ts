// The pure part of `wfmck fleet --workers N`: the workers' shards partition the user's shard exactly, each runs its
// share of the load, and their progress and interval figures add up to the fleet's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Histogram } from '../../simulators/fleet/histogram.ts';
import type { IntervalMetrics } from '../../simulators/fleet/runner.ts';
import { shardIndexes } from '../../simulators/fleet/shard.ts';
import { resolveFleetSpec } from '../../simulators/fleet/spec.ts';
import {
  MergedIntervals,
  sumProgress,
  usefulWorkers,
  workerAddresses,
  workerShard,
  workerSpec,
} from '../../simulators/fleet/worker-shares.ts';

test("the workers' shards partition the user's shard exactly", () => {
  for (const [count, workers] of [
    [1, 1],
    [1, 3],
    [2, 2],
    [3, 4],
  ] as const) {
    for (let index = 0; index < count; index++) {
      const user = [...shardIndexes(50, { index, count })];
      const byWorkers = Array.from({ length: workers }, (_, j) => [...shardIndexes(50, workerShard({ index, count }, j, workers))]);
      assert.deepEqual(
        byWorkers.flat().sort((a, b) => a - b),
        user,
        `shard ${index + 1}/${count} over ${workers} workers`,
      );
    }
  }
});

test('each worker runs its share of rate, burst and concurrency; never more workers than devices', () => {
  const spec = resolveFleetSpec({ devices: 3, rate: 100, burst: 5, concurrency: 64 });
  assert.deepEqual((({ rate, burst, concurrency, shard }) => ({ rate, burst, concurrency, shard }))(workerSpec(spec, 1, 2)), {
    rate: 50,
    burst: 3,
    concurrency: 32,
    shard: { index: 1, count: 2 },
  });
  assert.equal(usefulWorkers(spec, 8), 3);
  assert.deepEqual(workerAddresses(['a', 'b', 'c', 'd', 'e'], 1, 2), ['b', 'd']);
});

test('progress sums; interval figures merge per interval once every worker sent it or ended', () => {
  const clients = (n: number) => ({ created: n, onboarded: n, reporting: n, failed: 0 });
  assert.deepEqual(
    sumProgress([
      { elapsedMs: 900, clientsTotal: 5, clients: clients(2), requests: 7, errors: { '503': 1 } },
      { elapsedMs: 1000, clientsTotal: 4, clients: clients(1), requests: 3, errors: { '503': 2, WFMCK_E_TIMEOUT: 1 } },
    ]),
    { elapsedMs: 1000, clientsTotal: 9, clients: clients(3), requests: 10, errors: { '503': 3, WFMCK_E_TIMEOUT: 1 } },
  );
  const lines: IntervalMetrics[] = [];
  const merged = new MergedIntervals(2, (m) => lines.push(m));
  const interval = (requests: number, latencies: number[], n: number) => {
    const h = new Histogram();
    latencies.forEach((ms) => h.record(ms));
    const m: IntervalMetrics = {
      at: new Date(1000 * n).toISOString(),
      elapsedMs: 5000 * n,
      clients: clients(n),
      requests,
      requestsPerSecond: requests / 5,
      unexpected: 0,
      transportErrors: 0,
      p50Ms: 0,
      p95Ms: 0,
      p99Ms: 0,
      rssBytes: 100,
      heapUsedBytes: 50,
      externalBytes: 10,
    };
    return [m, h.mergeableSummary()] as const;
  };
  merged.add(0, ...interval(3, [1, 1, 10], 1));
  assert.equal(lines.length, 0, 'worker 2 has not sent its first interval');
  merged.add(1, ...interval(3, [10, 100, 100], 1));
  merged.add(0, ...interval(1, [1], 2));
  merged.end(1);
  // The first line's p50 is that of all six latencies (10 ms), neither worker's (1 ms, 100 ms).
  const all = new Histogram();
  [1, 1, 10, 10, 100, 100].forEach((ms) => all.record(ms));
  assert.deepEqual(
    lines.map((l) => [l.requests, l.p50Ms, l.clients.reporting, l.rssBytes]),
    [
      [6, Math.round(all.percentile(0.5) * 100) / 100, 2, 200],
      // Worker 2 ended: its last clients still count, its memory no longer.
      [1, 1, 3, 100],
    ],
  );
});
