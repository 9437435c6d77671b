// Seeded device descriptions: deterministic, different per seed, and valid for the spec's own oracles.
// Replay a failure with WFMCK_SEED=<seed> WFMCK_PATH=<path> (fast-check prints both).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeDevice, describeFleet, misbehaviourFor, fleetLayout } from '../../simulators/data/describe.ts';
import type { DeviceDescription, DeviceKind } from '../../simulators/device/types.ts';
import { resolveFleetSpec } from '../../simulators/fleet/spec.ts';
import { semanticFindings } from '../../spec/rules/capabilities.ts';
import { checkOpaqueAggregation } from '../../spec/rules/opaque-aggregation.ts';
import { formatSchemaErrors, validate } from '../../spec/schemas/index.ts';
import { lintCapabilities } from '../../spec/lint/capabilities.ts';
import { lintReport } from '../../spec/lint/report.ts';

const replay = {
  seed: process.env.WFMCK_SEED === undefined ? undefined : Number(process.env.WFMCK_SEED),
  path: process.env.WFMCK_PATH,
  numRuns: 60,
};
const KINDS: DeviceKind[] = ['plain', 'see-thru-gateway', 'opaque-gateway'];
const every = (d: DeviceDescription): DeviceDescription[] => [d, ...(d.children ?? []).flatMap(every)];

test('same seed and index give deep-equal descriptions, whatever was generated before', () => {
  for (const kind of KINDS) {
    const first = describeDevice(42, 7, kind, { children: 3, depth: 2 });
    describeDevice(1, 1, 'plain');
    assert.deepEqual(describeDevice(42, 7, kind, { children: 3, depth: 2 }), first);
  }
});

test('different seeds or indexes give different devices', () => {
  const a = describeDevice(1, 0, 'plain').capabilities.properties;
  const b = describeDevice(2, 0, 'plain').capabilities.properties;
  const c = describeDevice(1, 1, 'plain').capabilities.properties;
  assert.notEqual(a.serialNumber, b.serialNumber);
  assert.notEqual(a.serialNumber, c.serialNumber);
  assert.notEqual(a.id, c.id);
});

test('every generated document passes the schema and the semantic rules (property over seeds)', () => {
  fc.assert(
    fc.property(
      fc.nat(),
      fc.nat(100_000),
      fc.constantFrom(...KINDS),
      fc.boolean(),
      fc.constantFrom('spaced', 'compact') as fc.Arbitrary<'spaced' | 'compact'>,
      (seed, index, kind, hosts, quantityFormat) => {
        const desc = describeDevice(seed, index, kind, { children: 2, depth: 2, hostsWorkloads: hosts, quantityFormat });
        for (const d of every(desc)) {
          const result = validate('DeviceCapabilities', d.capabilities);
          assert.ok(result.ok, result.ok ? '' : `${d.id}: ${formatSchemaErrors(result.errors)}`);
          assert.deepEqual(semanticFindings(d.capabilities, { quantityFormats: quantityFormat }), [], d.id);
          assert.equal(d.capabilities.properties.id, d.id);
        }
      },
    ),
    replay,
  );
});

test("every generated document lints clean even in strict mode: the SHOULDs are the kit device's duty too (property over seeds)", () => {
  fc.assert(
    fc.property(fc.nat(), fc.nat(100_000), fc.constantFrom(...KINDS), fc.boolean(), (seed, index, kind, hosts) => {
      for (const d of every(describeDevice(seed, index, kind, { children: 2, depth: 2, hostsWorkloads: hosts }))) {
        const report = lintReport(d.id, lintCapabilities(JSON.stringify(d.capabilities), d.id), 'strict');
        assert.deepEqual(
          report.findings.map((f) => `${f.requirement} ${f.level}: ${f.message}`),
          [],
          d.id,
        );
      }
    }),
    { ...replay, numRuns: 200 },
  );
});

test('see-thru children carry hierarchical ids down to the depth asked for', () => {
  const gw = describeDevice(5, 3, 'see-thru-gateway', { children: 2, depth: 3 });
  const ids = every(gw).map((d) => d.id);
  assert.equal(ids.length, 1 + 2 + 4 + 8);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids.slice(1)) assert.ok(id.startsWith(`${gw.id}/`), id);
  assert.equal(Math.max(...ids.map((id) => id.split('/').length)), 4);
  const leaves = every(gw).filter((d) => !d.children?.length);
  assert.ok(leaves.every((d) => d.kind === 'plain' && d.capabilities.properties.cpus));
});

test('a non-hosting see-thru gateway sends identity fields only; a hosting one all of them', () => {
  const quiet = describeDevice(9, 1, 'see-thru-gateway', { hostsWorkloads: false }).capabilities.properties;
  assert.deepEqual(Object.keys(quiet).sort(), ['id', 'modelNumber', 'serialNumber', 'vendor']);
  const hosting = describeDevice(9, 1, 'see-thru-gateway', { hostsWorkloads: true }).capabilities.properties;
  assert.equal(hosting.otelCollector, true);
  assert.ok(hosting.supportedRuntimes!.length > 0);
});

test("an opaque gateway's document is the aggregation of its children (§2.2)", () => {
  const gw = describeDevice(11, 4, 'opaque-gateway', { children: 4 });
  assert.equal(gw.children?.length, 4);
  const kids = gw.children!.map((c) => c.capabilities.properties);
  assert.deepEqual(checkOpaqueAggregation(gw.capabilities, kids, gw.capabilities.properties.supportedDeploymentTypes!), []);
});

test('a fleet yields lazily and its layout counts what it yields', () => {
  const spec = resolveFleetSpec({ devices: 7, seeThruGateways: 2, opaqueGateways: 3, children: 2, depth: 2, seed: 3 });
  const it = describeFleet(spec);
  assert.equal(typeof it.next, 'function');
  const all = [...it];
  const layout = fleetLayout(spec);
  assert.equal(all.length, layout.clients);
  assert.equal(all.filter((d) => d.kind === 'see-thru-gateway').length, layout.seeThruGateways);
  assert.equal(all.filter((d) => d.kind === 'opaque-gateway').length, layout.opaqueGateways);
  const visible = all.flatMap((d) => (d.kind === 'opaque-gateway' ? [d] : every(d)));
  assert.equal(visible.length, layout.deviceIds);
});

test('misbehaviourFor follows the mix deterministically, and only gives gateway faults to see-thru gateways', () => {
  const mix = { crashingContainer: 0.3, slowInstallMs: 0.5, unreachableChild: 1, clockSkewSeconds: 0.2 };
  assert.deepEqual(misbehaviourFor(8, 99, mix, 'see-thru-gateway'), misbehaviourFor(8, 99, mix, 'see-thru-gateway'));
  let crashing = 0;
  for (let i = 0; i < 4000; i++) {
    const f = misbehaviourFor(8, i, mix);
    if (f.crashingContainer) crashing++;
    assert.equal(f.unreachableChild, undefined);
    if (f.slowInstallMs !== undefined) assert.ok(f.slowInstallMs >= 500 && f.slowInstallMs < 5000);
    if (f.clockSkewSeconds !== undefined) assert.ok(Math.abs(f.clockSkewSeconds) >= 5 && Math.abs(f.clockSkewSeconds) < 60);
  }
  assert.ok(crashing > 1000 && crashing < 1400, `about 30% crashing, got ${crashing}/4000`);
  assert.equal(misbehaviourFor(8, 1, mix, 'see-thru-gateway').unreachableChild, true);
  assert.deepEqual(misbehaviourFor(8, 1, {}), {});
});
