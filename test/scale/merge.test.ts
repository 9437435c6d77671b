// Past one machine: two shards of one fleet (same seed), merged by `wfmck merge`, give the totals of one unsharded
// run of that fleet; and merging refuses what would double-count or mix two fleets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeSummaries, MAX_UNEXPECTED, type ShardSummary } from '../../simulators/fleet/merge-summaries.ts';
import { startEmbedded } from '../../run/processes/embedded.ts';
import { runFleet } from '../../simulators/fleet/runner.ts';
import { resolveFleetSpec, type FleetSpec } from '../../simulators/fleet/spec.ts';
import { fleetSummary, writeSummary, type FleetSummary } from '../../simulators/fleet/summary.ts';
import type { UnexpectedAnswer } from '../../simulators/fleet/stats.ts';

const bin = fileURLToPath(new URL('../../bin/wfmck.mjs', import.meta.url));

async function wfmck(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (out.stdout += d));
  child.stderr.on('data', (d) => (out.stderr += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, ...out };
}

const withoutLatency = (s: FleetSummary) => Object.fromEntries(Object.entries(s.latency).map(([e, l]) => [e, l!.count]));

test(
  'two shards of a fleet (40 devices, see-thru and opaque gateways, seed 7) merge into the totals of one unsharded run',
  { timeout: 120_000 },
  async () => {
    const embedded = await startEmbedded();
    const dir = await mkdtemp(join(tmpdir(), 'wfmck-merge-'));
    try {
      const target = { wfm: embedded.wfm, ca: embedded.caPem, deviceCa: embedded.deviceCa };
      // duration 0: every device ticks exactly once, so every count is deterministic.
      const base: Partial<FleetSpec> = {
        devices: 40,
        seeThruGateways: 3,
        opaqueGateways: 2,
        children: 2,
        duration: 0,
        tickInterval: 0.05,
        seed: 7,
        concurrency: 8,
      };
      const run = async (shard: FleetSpec['shard'], name: string) => {
        const result = await runFleet(resolveFleetSpec({ ...base, shard }), target);
        await writeSummary(join(dir, name), fleetSummary(result, target));
        return fleetSummary(result, target);
      };
      const whole = await run({ index: 0, count: 1 }, 'whole');
      await run({ index: 0, count: 2 }, 'shard-1');
      await run({ index: 1, count: 2 }, 'shard-2');
      assert.equal(whole.passed, true);

      const merged = await wfmck(['merge', join(dir, 'shard-2'), join(dir, 'shard-1'), '--out', join(dir, 'merged')]);
      assert.equal(merged.code, 0, merged.stderr + merged.stdout);
      assert.match(merged.stdout, /^PASS 2 shard\(s\): 45\/45 devices reporting, 51\/51 deviceIds created/);
      const summary = JSON.parse(await readFile(join(dir, 'merged', 'fleet-summary.json'), 'utf8')) as FleetSummary & { complete: boolean };
      assert.equal(summary.complete, true);
      assert.equal(summary.shard, '1/1');
      assert.equal(summary.passed, true);
      assert.deepEqual(summary.expected, whole.expected);
      assert.deepEqual(summary.totals, whole.totals);
      assert.deepEqual(withoutLatency(summary), withoutLatency(whole));
      assert.deepEqual(summary.spec, whole.spec);
    } finally {
      await embedded.close();
    }
  },
);

test(
  'wfmck merge exits 2 for a folder without a summary, and 2 when a shard is missing (as merge-reports), the partial summary still written',
  { timeout: 60_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wfmck-merge-usage-'));
    const missing = await wfmck(['merge', join(dir, 'nothing-here'), '--out', join(dir, 'm')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nothing-here: no such folder or file/);
    const empty = await wfmck(['merge', dir, '--out', join(dir, 'm')]);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /fleet-summary\.json: ENOENT/);
    await writeSummary(join(dir, 's1'), fake({ index: 0, count: 2 }));
    const incomplete = await wfmck(['merge', join(dir, 's1'), '--out', join(dir, 'm')]);
    assert.equal(incomplete.code, 2);
    assert.match(incomplete.stdout, /INCOMPLETE: only 1\/2/);
    assert.match(incomplete.stderr, /^wfmck merge: shard\(s\) 2\/2 missing/);
  },
);

/** A summary as one shard of a 10-device fleet writes it, latency included. */
function fake(shard: FleetSpec['shard'], unexpected: UnexpectedAnswer[] = [], seed = 5): FleetSummary {
  const spec = resolveFleetSpec({ devices: 10, seed, shard });
  const latency = {
    count: 1,
    minMs: 2,
    meanMs: 2,
    p50Ms: 2,
    p95Ms: 2,
    p99Ms: 2,
    maxMs: 2,
    sumMs: 2,
    buckets: [[1 + Math.floor(Math.log(200) / Math.log(1.04)), 1]] as [number, number][],
  };
  return {
    kind: 'wfmck-fleet-summary',
    version: 1,
    target: { wfm: 'https://127.0.0.1:1' },
    spec,
    seed,
    shard: `${shard.index + 1}/${shard.count}`,
    expected: { clients: 5, seeThruGateways: 0, opaqueGateways: 0, plain: 5, seeThruChildren: 0, opaqueChildren: 0, deviceIds: 5 },
    totals: {
      clients: { created: 5, onboarded: 5, reporting: 5, failed: 0 },
      deviceIdsCreated: 5,
      requests: { total: 20, expected: 20, unexpected: 0, transportErrors: 0, aborted: 0 },
      errors: {},
      deploymentReports: {},
      deployments: {
        perDevice: 1,
        assigned: 5,
        assignErrors: 0,
        installed: 5,
        failed: {},
        failedByFault: {},
        pending: 0,
        resynchronized: 0,
        statusResponses: { '201': 5 },
      },
    },
    latency: { onboarding: latency },
    unexpected,
    unexpectedNotListed: 0,
    throughput: { onboardedPerSecond: 10, requestsPerSecond: 40 },
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:01.000Z',
    wallMs: 1000,
    startPhaseMs: 500,
    peakRssBytes: 1,
    cpu: { fleetMs: 300 + 100 * shard.index, embeddedServicesMs: 50 },
    interrupted: false,
    ranClean: true,
    thresholds: [],
    passed: true,
  } as FleetSummary;
}

const shards = (...s: FleetSummary[]): ShardSummary[] => s.map((summary, i) => ({ source: `s${i}`, summary }));

test('settings of the fleet (deployments per device) stay as they are; counts and status maps add up; rates and CPU times add up', () => {
  const m = mergeSummaries(shards(fake({ index: 0, count: 2 }), fake({ index: 1, count: 2 })));
  const deployments = (
    m.totals as unknown as { deployments: { perDevice: number; installed: number; statusResponses: Record<string, number> } }
  ).deployments;
  assert.equal(deployments.perDevice, 1);
  assert.equal(deployments.installed, 10);
  assert.deepEqual(deployments.statusResponses, { '201': 10 });
  assert.equal(m.latency.onboarding!.count, 2);
  assert.equal(m.throughput.requestsPerSecond, 80);
  assert.deepEqual(m.cpu, { fleetMs: 700, embeddedServicesMs: 100 });
});

test('merge refuses a shard given twice, two seeds, and shards of different counts', () => {
  assert.throws(() => mergeSummaries(shards(fake({ index: 0, count: 2 }), fake({ index: 0, count: 2 }))), /given twice/);
  assert.throws(() => mergeSummaries(shards(fake({ index: 0, count: 2 }), fake({ index: 1, count: 2 }, [], 6))), /not the same fleet/);
  assert.throws(() => mergeSummaries(shards(fake({ index: 0, count: 2 }), fake({ index: 1, count: 3 }))), /the others are of 2/);
});

test('unexpected answers collapse across shards, most frequent first, bounded as one run bounds them', () => {
  const answer = (message: string, count: number): UnexpectedAnswer => ({
    endpoint: 'capabilities.put',
    status: 422,
    message,
    count,
    deviceId: 'd',
  });
  const a = Array.from({ length: MAX_UNEXPECTED }, (_, i) => answer(`m${i}`, 1));
  const m = mergeSummaries(
    shards(
      fake({ index: 0, count: 2 }, [answer('same', 2), ...a.slice(0, 30)]),
      fake({ index: 1, count: 2 }, [answer('same', 3), ...a.slice(30)]),
    ),
  );
  assert.equal(m.unexpected.length, MAX_UNEXPECTED);
  assert.deepEqual(m.unexpected[0], answer('same', 5));
  assert.equal(m.unexpectedNotListed, 1, 'the fifty-first distinct answer is counted, not listed');
});

test("thresholds are judged again on the merged figures: the fleet passes or fails on its own p95, not a shard's", () => {
  const withThresholds = (shard: FleetSpec['shard'], thresholds: string[]) => {
    const s = fake(shard);
    return { ...s, spec: { ...s.spec, thresholds } };
  };
  const held = mergeSummaries(
    shards(withThresholds({ index: 0, count: 2 }, ['p95<5ms']), withThresholds({ index: 1, count: 2 }, ['p95<5ms'])),
  );
  assert.equal(held.passed, true);
  assert.deepEqual(
    held.thresholds.map((t) => [t.threshold, t.ok, t.endpoint]),
    [['p95<5ms', true, 'onboarding']],
  );
  const broken = mergeSummaries(
    shards(
      withThresholds({ index: 0, count: 2 }, ['p95<1ms', 'errors<1%']),
      withThresholds({ index: 1, count: 2 }, ['p95<1ms', 'errors<1%']),
    ),
  );
  assert.equal(broken.passed, false, 'p95 of the merged fleet is about 2 ms');
  assert.deepEqual(
    broken.thresholds.map((t) => t.ok),
    [false, true],
  );
  assert.equal(broken.ranClean, true, 'the fleet itself ran clean: only the threshold failed');
});
