// The pure device machine (simulators/device/machine.ts) driven by a fake WFM: the §1 sequence, §2.4 reports,
// §2.4.1 adoption, removal, flapping capabilities and failures, all without I/O.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  afterResult,
  beginTick,
  childDeparted,
  initialMachine,
  loseLocalState,
  nextAction,
  type MachineState,
} from '../../simulators/device/machine.ts';
import { FakeWfm } from './device-fake-wfm.ts';

function started(wfm: FakeWfm, devices = 1, faults = {}): MachineState {
  return wfm.run(initialMachine(devices, faults));
}

function tick(wfm: FakeWfm, s: MachineState): MachineState {
  return wfm.run(beginTick(s));
}

test('§1: root CA, onboarding, then capabilities as the first exchange after onboarding', () => {
  const wfm = new FakeWfm();
  const s = started(wfm);
  assert.deepEqual(
    wfm.actions.map((a) => a.type),
    ['fetch-root-ca', 'onboard', 'put-capabilities'],
  );
  assert.equal(s.phase, 'reporting');
  assert.equal(s.clientId, 'client-1');
  assert.deepEqual(nextAction(s), { type: 'idle' }, 'nothing to do until a tick');
});

test('§2.2: a gateway registers itself, then each device behind it in order', () => {
  const wfm = new FakeWfm();
  started(wfm, 4);
  assert.deepEqual(
    wfm.actions.filter((a) => a.type === 'put-capabilities').map((a) => (a as { index: number }).index),
    [0, 1, 2, 3],
  );
});

test('§2.4: a new deployment is reported pending, installing, installed, one entry per component', () => {
  const wfm = new FakeWfm();
  let s = started(wfm);
  const version = wfm.publish(() => [{ deploymentId: 'd1', digest: 'sha256:a', components: ['web', 'db'] }]);
  s = tick(wfm, s);
  // P7 precedence: [installed, pending] is pending overall.
  assert.deepEqual(
    wfm.reports.map((r) => r.status.state),
    ['pending', 'installing', 'pending', 'installing', 'installed'],
  );
  assert.deepEqual(wfm.reports.at(-1)!.components, [
    { name: 'web', state: 'installed' },
    { name: 'db', state: 'installed' },
  ]);
  assert.ok(wfm.reports.every((r) => r.adoptedManifestVersion === version && r.kind === 'DeploymentStatusManifest' && r.apiVersion));
  assert.ok(
    wfm.reports.every((r) => r.deviceId === undefined),
    'a plain device reports for itself',
  );
  assert.equal(s.deployments[0]!.stage, 'settled');
});

test('§4.8: a failed component fails the deployment at once; later components stay pending', () => {
  const wfm = new FakeWfm();
  let s = started(wfm);
  wfm.outcomes = ['failed'];
  wfm.publish(() => [{ deploymentId: 'd1', digest: 'sha256:a', components: ['web', 'db'] }]);
  s = tick(wfm, s);
  const last = wfm.reports.at(-1)!;
  assert.equal(last.status.state, 'failed');
  assert.deepEqual(last.status.error, { code: 'X', source: 'app-d1', message: 'boom' }, '§2.4 source rule 2: the deployment name');
  assert.deepEqual(
    last.components.map((c) => c.state),
    ['failed', 'pending'],
  );
  assert.equal(last.components[0]!.error!.source, 'web', '§2.4 source rule 3: the component name');
  assert.equal(wfm.actions.filter((a) => a.type === 'apply-step' && a.step === 'run').length, 1);
});

test('a deployment gone from the manifest is reported removing, then removed, then forgotten', () => {
  const wfm = new FakeWfm();
  let s = started(wfm);
  wfm.publish(() => [{ deploymentId: 'd1', digest: 'sha256:a', components: ['web'] }]);
  s = tick(wfm, s);
  wfm.reports = [];
  const removedIn = wfm.publish(() => []);
  s = tick(wfm, s);
  assert.deepEqual(
    wfm.reports.map((r) => r.status.state),
    ['removing', 'removed'],
  );
  assert.ok(wfm.reports.every((r) => r.adoptedManifestVersion === removedIn));
  assert.deepEqual(s.deployments, []);
});

test('§2.4.1 rule 4: fetching a newer revision does not advance the version until applying begins', () => {
  const wfm = new FakeWfm();
  let s = started(wfm);
  const v2 = wfm.publish(() => [{ deploymentId: 'd1', digest: 'sha256:a', components: ['web'] }]);
  s = tick(wfm, s);
  const v3 = wfm.publish(() => [{ deploymentId: 'd1', digest: 'sha256:b', components: ['web'] }]);
  s = wfm.run(beginTick(s), (a) => a.type === 'fetch-deployment');
  assert.equal(s.deployments[0]!.adoption.held!.version, v2);
  assert.equal(s.deployments[0]!.adoption.fetched, v3);
  wfm.reports = [];
  s = wfm.run(s);
  assert.ok(wfm.reports.every((r) => r.adoptedManifestVersion === v3));
});

test('reading: a later manifest carrying the same revision (same digest) keeps the version it was adopted from', () => {
  const wfm = new FakeWfm();
  let s = started(wfm);
  const v2 = wfm.publish(() => [{ deploymentId: 'd1', digest: 'sha256:a', components: ['web'] }]);
  s = tick(wfm, s);
  wfm.publish((ds) => [...ds, { deploymentId: 'd2', digest: 'sha256:c', components: ['x'] }]);
  wfm.reports = [];
  s = tick(wfm, s);
  assert.ok(
    wfm.reports.every((r) => r.deploymentId === 'd2'),
    'd1 is not reported again',
  );
  assert.equal(s.deployments.find((d) => d.deploymentId === 'd1')!.adoption.held!.version, v2);
});

test('§2.4.1 rule 6: after losing local state the client reports the version it resynchronized against', () => {
  const wfm = new FakeWfm();
  let s = started(wfm);
  wfm.publish(() => [{ deploymentId: 'd1', digest: 'sha256:a', components: ['web'] }]);
  s = tick(wfm, s);
  const v3 = wfm.publish((ds) => [...ds, { deploymentId: 'd2', digest: 'sha256:c', components: ['x'] }]);
  s = tick(wfm, loseLocalState(s));
  const d1 = wfm.reports.filter((r) => r.deploymentId === 'd1').at(-1)!;
  assert.equal(d1.adoptedManifestVersion, v3);
  assert.equal(s.deployments.find((d) => d.deploymentId === 'd1')!.adoption.held!.via, 'resync');
});

test('the stateLoss fault strikes once, at the first tick after something is installed', () => {
  const wfm = new FakeWfm();
  let s = started(wfm, 1, { stateLoss: true });
  wfm.publish(() => [{ deploymentId: 'd1', digest: 'sha256:a', components: ['web'] }]);
  s = tick(wfm, s);
  s = tick(wfm, s);
  const polls = wfm.actions.filter((a) => a.type === 'poll');
  assert.equal(polls.at(-1)!.type === 'poll' && polls.at(-1)!.etag, undefined, 'the ETag was lost with the state');
  assert.equal(s.deployments[0]!.adoption.held!.via, 'resync');
  const before = wfm.actions.length;
  s = tick(wfm, s);
  assert.equal(wfm.actions.length - before, 1, 'the next tick only polls (304)');
});

test('§2.4.1 rule 7: an older manifest than the one processed is stale and changes nothing', () => {
  const wfm = new FakeWfm();
  let s = started(wfm);
  wfm.publish(() => [{ deploymentId: 'd1', digest: 'sha256:a', components: ['web'] }]);
  s = tick(wfm, s);
  const stale = afterResult(beginTick(s), { type: 'poll' }, { ok: true, kind: 'manifest', version: 1, deployments: [] });
  assert.deepEqual(stale.deployments, s.deployments);
});

test('§2.4.1 rule 7: a manifest repeating the processed version is stale too, unless forced (client fault DS-CLIENT-MONOTONIC)', () => {
  const wfm = new FakeWfm();
  let s = started(wfm);
  wfm.publish(() => [{ deploymentId: 'd1', digest: 'sha256:a', components: ['web'] }]);
  s = tick(wfm, s);
  const repeat = {
    ok: true as const,
    kind: 'manifest' as const,
    version: s.manifestVersion,
    deployments: [{ deploymentId: 'd1', digest: 'sha256:b', url: '/d1/b' }],
  };
  assert.deepEqual(afterResult(beginTick(s), { type: 'poll' }, repeat).deployments, s.deployments);
  assert.equal(afterResult(beginTick(s), { type: 'poll' }, { ...repeat, force: true }).deployments[0]!.digest, 'sha256:b');
});

test("P4: the manifest's bundle is kept, and offered to a fetch with every deployment it must hold", () => {
  const wfm = new FakeWfm();
  const s = afterResult(
    beginTick(started(wfm)),
    { type: 'poll' },
    {
      ok: true,
      kind: 'manifest',
      version: 2,
      bundle: { digest: 'sha256:c', url: '/bundles/c' },
      deployments: [
        { deploymentId: 'd1', digest: 'sha256:a', url: '/d1/a' },
        { deploymentId: 'd2', digest: 'sha256:b', url: '/d2/b' },
      ],
    },
  );
  assert.deepEqual(nextAction(s), {
    type: 'fetch-deployment',
    deploymentId: 'd1',
    url: '/d1/a',
    digest: 'sha256:a',
    bundle: { digest: 'sha256:c', url: '/bundles/c' },
    deployments: [
      { deploymentId: 'd1', digest: 'sha256:a', url: '/d1/a' },
      { deploymentId: 'd2', digest: 'sha256:b', url: '/d2/b' },
    ],
  });
});

test('§2.1: flappingCapabilities sends the own document again every few polls', () => {
  const wfm = new FakeWfm();
  let s = started(wfm, 1, { flappingCapabilities: true });
  for (let i = 0; i < 6; i++) s = tick(wfm, s);
  const puts = wfm.actions.filter((a) => a.type === 'put-capabilities');
  assert.deepEqual(
    puts.map((a) => (a as { revision: number }).revision),
    [0, 1, 2],
  );
});

test('§7: a 403 (retired client) stops the device; a transient failure only ends the tick', () => {
  const wfm = new FakeWfm();
  const s = started(wfm);
  const stalled = afterResult(beginTick(s), { type: 'poll' }, { ok: false, transient: true, message: 'WFMCK_E_CONNECTION' });
  assert.equal(stalled.phase, 'reporting');
  assert.deepEqual(nextAction(stalled), { type: 'idle' });
  assert.equal(nextAction(beginTick(stalled)).type, 'poll');
  const retired = afterResult(beginTick(s), { type: 'poll' }, { ok: false, transient: false, status: 403, message: 'retired' });
  assert.equal(retired.phase, 'failed');
});

test('start gives up after repeated transient failures, and at once on a refusal', () => {
  let s = initialMachine(1);
  for (let i = 0; i < 3; i++) s = afterResult(s, nextAction(s), { ok: false, transient: true, message: 'down' });
  assert.equal(s.phase, 'failed');
  const refused = afterResult(initialMachine(1), { type: 'fetch-root-ca' }, { ok: false, transient: false, status: 404, message: 'no CA' });
  assert.equal(refused.phase, 'failed');
});

test('§2.2: a departed child is DELETEd once and never registered again', () => {
  const wfm = new FakeWfm();
  let s = started(wfm, 3);
  s = childDeparted(s, [2, 1]);
  assert.deepEqual(nextAction(s), { type: 'delete-child', index: 2 });
  s = wfm.run(s);
  assert.deepEqual(
    wfm.actions.filter((a) => a.type === 'delete-child').map((a) => (a as { index: number }).index),
    [2, 1],
  );
  assert.equal(childDeparted(s, [1]), s);
});

test('§2.2: a child the WFM refuses is skipped and counts as gone; the others still register', () => {
  let s = afterResult(initialMachine(3), { type: 'fetch-root-ca' }, { ok: true, kind: 'done' });
  s = afterResult(s, { type: 'onboard' }, { ok: true, kind: 'onboarded', clientId: 'c' });
  s = afterResult(s, nextAction(s), { ok: true, kind: 'done' });
  s = afterResult(s, nextAction(s), { ok: false, transient: false, status: 404, message: 'no gateway found' });
  assert.deepEqual(nextAction(s), { type: 'put-capabilities', index: 2, revision: 0 });
  s = afterResult(s, nextAction(s), { ok: true, kind: 'done' });
  assert.equal(s.phase, 'reporting');
  assert.deepEqual(s.departed, [1]);
  assert.deepEqual(s.deleting, [], 'never registered, so nothing to DELETE');
});
