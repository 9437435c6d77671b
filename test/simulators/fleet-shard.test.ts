// Shards are disjoint, cover the fleet, and keep a gateway with its children.
// Replay a failure with WFMCK_SEED=<seed> WFMCK_PATH=<path> (fast-check prints both).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeFleet, fleetLayout } from '../../simulators/data/describe.ts';
import type { DeviceDescription } from '../../simulators/device/types.ts';
import { shardIndexes, shardOf, shardSize } from '../../simulators/fleet/shard.ts';
import { resolveFleetSpec } from '../../simulators/fleet/spec.ts';

const replay = {
  seed: process.env.WFMCK_SEED === undefined ? undefined : Number(process.env.WFMCK_SEED),
  path: process.env.WFMCK_PATH,
  numRuns: 200,
};

test('shard indexes are disjoint and together cover 0..total-1', () => {
  fc.assert(
    fc.property(fc.nat(300), fc.integer({ min: 1, max: 12 }), (total, count) => {
      const seen = new Array<number>(total).fill(0);
      for (let index = 0; index < count; index++) {
        const mine = [...shardIndexes(total, { index, count })];
        assert.equal(mine.length, shardSize(total, { index, count }));
        for (const k of mine) {
          assert.equal(shardOf(k, count), index);
          seen[k]!++;
        }
      }
      assert.ok(seen.every((n) => n === 1));
    }),
    replay,
  );
});

test('sharded fleets hold the same devices as the whole fleet, gateways with their children', () => {
  const ids = (d: DeviceDescription): string[] => [d.id, ...(d.children ?? []).flatMap(ids)];
  fc.assert(
    fc.property(fc.nat(12), fc.nat(3), fc.nat(3), fc.integer({ min: 1, max: 5 }), (devices, seeThru, opaque, count) => {
      fc.pre(devices + seeThru + opaque > 0);
      const spec = resolveFleetSpec({ devices, seeThruGateways: seeThru, opaqueGateways: opaque, children: 2, depth: 2, seed: 9 });
      const whole = [...describeFleet(spec, { index: 0, count: 1 })];
      const parts = Array.from({ length: count }, (_, index) => [...describeFleet(spec, { index, count })]);
      assert.deepEqual(parts.flat().flatMap(ids).sort(), whole.flatMap(ids).sort());
      for (const [index, part] of parts.entries()) {
        const layout = fleetLayout(spec, { index, count });
        assert.equal(part.length, layout.clients);
        assert.equal(part.filter((d) => d.kind === 'see-thru-gateway').length, layout.seeThruGateways);
        assert.equal(part.filter((d) => d.kind === 'opaque-gateway').length, layout.opaqueGateways);
      }
    }),
    { ...replay, numRuns: 40 },
  );
});
