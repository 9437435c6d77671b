// The fleet runner against stand-in devices: counts, evidence, bounded concurrency, the rate limit, interruption.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRootCa } from '../../protocol/pki.ts';
import { fakeEnvironment } from '../../simulators/fleet/fake-devices.ts';
import { runFleet, type FleetTarget } from '../../simulators/fleet/runner.ts';
import { resolveFleetSpec } from '../../simulators/fleet/spec.ts';
import { fleetSummary, writeSummary } from '../../simulators/fleet/summary.ts';

const target: FleetTarget = { wfm: 'https://127.0.0.1:1', deviceCa: await createRootCa('test device CA') };

test('every device onboards and reports; counts match the fleet layout', async () => {
  const { factory, probe } = fakeEnvironment();
  const spec = resolveFleetSpec({
    devices: 20,
    seeThruGateways: 2,
    opaqueGateways: 1,
    children: 2,
    depth: 2,
    duration: 0.3,
    tickInterval: 0.1,
    concurrency: 8,
    seed: 1,
  });
  const result = await runFleet(spec, target, { environment: factory });
  assert.equal(result.passed, true);
  assert.equal(result.layout.clients, 23);
  assert.equal(result.layout.deviceIds, 23 + 2 * (2 + 4));
  assert.deepEqual(result.totals.clients, { created: 23, onboarded: 23, reporting: 23, failed: 0 });
  assert.equal(result.totals.deviceIdsCreated, result.layout.deviceIds);
  assert.equal(result.totals.requests.total, probe.requests);
  assert.ok(result.totals.latency['desired-state']!.count >= 23, 'every device ticked at least once');
  assert.equal(result.totals.latency.onboarding!.count, 23);
  assert.deepEqual(result.totals.errors, {});
  assert.ok(probe.closed);
});

test('unexpected answers are counted by status and collapsed with one exchange as evidence', async () => {
  const refused = (id: string) => /dev-0000[0-9][05]$/.test(id);
  const { factory } = fakeEnvironment({ status: (id, endpoint) => (endpoint === 'capabilities.put' && refused(id) ? 403 : undefined) });
  const spec = resolveFleetSpec({ devices: 30, duration: 0, seed: 2, idPrefix: 'q' });
  const result = await runFleet(spec, target, { environment: factory });
  const failed = result.totals.clients.failed;
  assert.equal(failed, 6);
  assert.equal(result.passed, false);
  assert.deepEqual(result.totals.errors, { '403': failed });
  assert.equal(result.totals.unexpected.length, 1, 'collapsed by endpoint, status and message');
  const [entry] = result.totals.unexpected;
  assert.equal(entry!.count, failed);
  assert.equal(entry!.message, 'scripted 403 for <deviceId>');
  assert.equal(entry!.exchange?.status, 403);
});

test('devices are created lazily and never more than `concurrency` start at once', async () => {
  const { factory, probe } = fakeEnvironment({ latencyMs: 5 });
  const spec = resolveFleetSpec({ devices: 40, duration: 0, concurrency: 3, seed: 3 });
  const result = await runFleet(spec, target, { environment: factory });
  assert.equal(result.passed, true);
  assert.equal(probe.created, 40);
  assert.ok(probe.maxStarting <= 3, `at most 3 starting at once, saw ${probe.maxStarting}`);
});

test('the rate limit holds the fleet near its requests per second', async () => {
  const { factory, probe } = fakeEnvironment({ latencyMs: 0 });
  // 20 devices × 3 start requests + 1 tick each = 80 requests at 100/s with a burst of 10: about 0.7 s.
  const spec = resolveFleetSpec({ devices: 20, duration: 0, tickInterval: 0.05, rate: 100, burst: 10, concurrency: 50, seed: 4 });
  const result = await runFleet(spec, target, { environment: factory });
  assert.equal(probe.requests, 80);
  assert.ok(result.wallMs >= 550, `80 requests at 100/s took ${result.wallMs} ms`);
  assert.ok((probe.requests * 1000) / result.wallMs < 150, 'well under 1.5× the rate');
});

test('an interrupted run stops promptly and its summary says interrupted', async () => {
  const { factory } = fakeEnvironment({ latencyMs: 20 });
  const spec = resolveFleetSpec({ devices: 500, duration: 60, concurrency: 4, seed: 5 });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  const began = Date.now();
  const result = await runFleet(spec, target, { environment: factory, signal: controller.signal });
  assert.ok(Date.now() - began < 5000, 'stopped within seconds');
  assert.equal(result.interrupted, true);
  assert.equal(result.passed, false);
  assert.ok(result.totals.clients.onboarded < 500);
  assert.equal(result.totals.requests.transportErrors, 0, 'our own aborts are not counted against the target');
  const dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-'));
  const file = await writeSummary(dir, fleetSummary(result, target));
  const summary = JSON.parse(await readFile(file, 'utf8'));
  assert.equal(summary.interrupted, true);
  assert.equal(summary.seed, 5);
  assert.equal(summary.shard, '1/1');
  assert.ok(Date.parse(summary.endedAt) >= Date.parse(summary.startedAt));
});

test('progress is reported while the fleet runs, and once more at the end', async () => {
  const { factory } = fakeEnvironment({ latencyMs: 10 });
  const spec = resolveFleetSpec({ devices: 10, duration: 0.3, tickInterval: 0.1, concurrency: 2, seed: 6 });
  const seen: number[] = [];
  const result = await runFleet(spec, target, {
    environment: factory,
    progressIntervalMs: 50,
    onProgress: (p) => seen.push(p.clients.onboarded),
  });
  assert.ok(seen.length >= 3);
  assert.equal(seen.at(-1), result.totals.clients.onboarded);
});
