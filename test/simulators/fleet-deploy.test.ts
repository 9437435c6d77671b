// Fleets that deploy, against the embedded default: the sample compose component published once, deployments
// assigned to every hosting device after it reports, and each fault knob showing up as its expected outcome.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { misbehaviourFor } from '../../simulators/data/misbehaviour.ts';
import { runFleet, type FleetTarget } from '../../simulators/fleet/runner.ts';
import { FleetSpecError, resolveFleetSpec, type FleetSpec } from '../../simulators/fleet/spec.ts';
import { embeddedFleetTarget } from './fleet-deploy-target.ts';

const shared = embeddedFleetTarget();

const fleet = (spec: Partial<FleetSpec>) => runFleet(resolveFleetSpec({ duration: 0, concurrency: 8, ...spec }), shared.target);

test('every hosting device and `<gateway>/*` gets its deployments, and each one is installed and reported', async () => {
  const result = await fleet({
    devices: 4,
    seeThruGateways: 1,
    children: 2,
    hostsWorkloads: 1,
    opaqueGateways: 1,
    deployments: 2,
    seed: 21,
  });
  const d = result.totals.deployments;
  // 4 plain + 1 opaque + the hosting see-thru gateway + its 2 children + `<gateway>/*`, twice each.
  assert.equal(d.assigned, 2 * (4 + 1 + 1 + 2 + 1));
  assert.deepEqual(
    { installed: d.installed, failed: d.failed, failedByFault: d.failedByFault, pending: d.pending },
    { installed: d.assigned, failed: {}, failedByFault: {}, pending: 0 },
  );
  // pending, installing, installed: the first report creates the status (201), the next two update it (200).
  assert.deepEqual(d.statusResponses, { '201': d.assigned, '200': 2 * d.assigned });
  assert.equal(result.spec.deployments, 2);
  assert.equal(result.passed, true, JSON.stringify(result.totals.unexpected));
});

test('the fleet deploys one per hosting device by default when it can assign, and none when told 0', async () => {
  assert.equal((await fleet({ devices: 3, seed: 22 })).totals.deployments.assigned, 3);
  const none = await fleet({ devices: 3, seed: 22, deployments: 0 });
  assert.equal(none.totals.deployments.assigned, 0);
  assert.deepEqual(none.totals.deployments.statusResponses, {});
});

test('crashingContainer: failed at once with CONTAINER_EXITED, an expected outcome that passes the run', async () => {
  const result = await fleet({ devices: 4, faults: { crashingContainer: 1 }, seed: 23 });
  assert.deepEqual(result.totals.deployments.failedByFault, { CONTAINER_EXITED: 4 });
  assert.deepEqual(result.totals.deployments.failed, {});
  assert.equal(result.totals.requests.unexpected, 0);
  assert.equal(result.passed, true);
});

test('unhealthyContainer: failed with HEALTHCHECK_TIMEOUT only after the scaled 5-minute timeout', async () => {
  // 5m0s × 0.004 = 1.2 s inside each device's first (and only) tick.
  const result = await fleet({ devices: 3, faults: { unhealthyContainer: 1 }, timeScale: 0.004, seed: 24 });
  assert.deepEqual(result.totals.deployments.failedByFault, { HEALTHCHECK_TIMEOUT: 3 });
  assert.ok(result.totals.latency.status!.count >= 9, 'pending, installing, failed for each');
  assert.ok(result.wallMs >= 1200, `waited the scaled timeout: ${result.wallMs} ms`);
  assert.equal(result.passed, true);
});

test('stateLoss: the device forgets, resynchronises (§2.4.1 rule 6), reports again, and ends installed', async () => {
  // Duration 0: a fleet with deployments still ticks each device twice, and the loss strikes on the second tick.
  const result = await fleet({ devices: 3, faults: { stateLoss: 1 }, tickInterval: 0.2, seed: 25 });
  const d = result.totals.deployments;
  assert.equal(d.installed, 3);
  assert.equal(d.resynchronized, 3, 'each device reported its deployment again after losing it');
  assert.equal(result.passed, true, JSON.stringify(result.totals.unexpected));
});

test('unreachableChild: the cut-off child reports reserved code 102 with the gateway as source; `<gateway>/*` goes around it', async () => {
  const result = await fleet({ seeThruGateways: 1, devices: 0, children: 2, hostsWorkloads: 0, faults: { unreachableChild: 1 }, seed: 26 });
  const d = result.totals.deployments;
  assert.equal(d.assigned, 3, 'two children and `<gateway>/*`');
  assert.deepEqual(d.failedByFault, { '102': 1 });
  assert.equal(d.installed, 2);
  assert.equal(result.passed, true, JSON.stringify(result.totals.unexpected));
});

test('slowInstallMs: installs still complete, later by the scaled delay', async () => {
  // A seed whose one device draws a long slow install, so the delay stands out of the run-to-run noise.
  const seed = Array.from({ length: 200 }, (_, s) => s).find((s) => misbehaviourFor(s, 0, { slowInstallMs: 1 }).slowInstallMs! >= 3000)!;
  const slowMs = misbehaviourFor(seed, 0, { slowInstallMs: 1 }).slowInstallMs!;
  const quick = await fleet({ devices: 1, faults: { slowInstallMs: 1 }, timeScale: 0, seed });
  const slow = await fleet({ devices: 1, faults: { slowInstallMs: 1 }, timeScale: 0.5, seed });
  assert.equal(quick.totals.deployments.installed, 1);
  assert.equal(slow.totals.deployments.installed, 1);
  assert.ok(slow.wallMs - quick.wallMs >= slowMs * 0.5 - 400, `${slowMs} ms × 0.5: ${quick.wallMs} ms, then ${slow.wallMs} ms`);
  assert.equal(slow.passed, true);
});

test('a target with no way to assign deployments refuses --deployments instead of ignoring it', async () => {
  const { deployments: _, ...bare } = shared.target;
  await assert.rejects(runFleet(resolveFleetSpec({ devices: 1, deployments: 1, seed: 28 }), bare), FleetSpecError);
  const quiet = await runFleet(resolveFleetSpec({ devices: 1, duration: 0, seed: 28 }), bare);
  assert.equal(quiet.spec.deployments, 0, 'the default is 0 without a hook');
  assert.equal(quiet.passed, true);
});

test('a deployment that fails for no fault of the device is unexpected: listed with its code, and the run fails', async () => {
  const missing = {
    name: 'ghost',
    repository: shared.target.deployments!.components[0]!.repository.replace('hello-compose', 'ghost'),
    revision: '9.9.9',
  };
  const ghost: FleetTarget = { ...shared.target, deployments: { ...shared.target.deployments!, components: [missing] } };
  const result = await runFleet(resolveFleetSpec({ devices: 2, duration: 0, seed: 29 }), ghost);
  assert.deepEqual(result.totals.deployments.failed, { MANIFEST_UNAVAILABLE: 2 });
  const listed = result.totals.unexpected.find((u) => u.code === 'MANIFEST_UNAVAILABLE');
  assert.ok(listed, JSON.stringify(result.totals.unexpected));
  assert.equal(listed.endpoint, 'status');
  assert.match(listed.message, /ghost/);
  assert.equal(result.passed, false);
});
