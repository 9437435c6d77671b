// Where a fleet's deployments go, and how their reported outcomes are judged against the devices' own fault knobs.
// Replay a property failure with WFMCK_SEED=<seed> WFMCK_PATH=<path> (fast-check prints both).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeDevice } from '../../simulators/data/describe.ts';
import type { DeviceMisbehaviour } from '../../simulators/device/types.ts';
import { DeploymentOutcomes, faultExplaining } from '../../simulators/fleet/deployment-outcomes.ts';
import { deploymentTargets, parseComponentRef } from '../../simulators/fleet/assigned-deployments.ts';
import { hierarchy, hostsWorkloads } from '../../simulators/gateways/see-thru.ts';
import type { DeploymentStatusReport } from '../../spec/types.ts';
import { fcOptions } from '../support/fc.ts';

function report(deploymentId: string, state: string, code?: string): DeploymentStatusReport {
  const error = code ? { code, source: 'web', message: `failed with ${code}` } : undefined;
  return {
    deploymentId,
    adoptedManifestVersion: 1,
    status: error ? { state, error } : { state },
    components: [error ? { name: 'web', state, error } : { name: 'web', state }],
  } as DeploymentStatusReport;
}

test('a plain device and an opaque gateway are one target each, with their own faults', () => {
  const plain = describeDevice(1, 0, 'plain', { faults: { crashingContainer: true } });
  assert.deepEqual(deploymentTargets(plain), [{ deviceId: plain.id, faults: { crashingContainer: true } }]);
  const opaque = describeDevice(1, 1, 'opaque-gateway', { children: 3 });
  assert.deepEqual(
    deploymentTargets(opaque).map((t) => t.deviceId),
    [opaque.id],
    'its children are invisible to the WFM (§2.2)',
  );
});

test('a see-thru gateway: every hosting device it shows, then `<gateway>/*` when something behind it hosts', () => {
  fc.assert(
    fc.property(
      fc.nat(1000),
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 1, max: 2 }),
      fc.boolean(),
      fc.boolean(),
      (seed, children, depth, hosts, cut) => {
        const gw = describeDevice(seed, 0, 'see-thru-gateway', {
          children,
          depth,
          hostsWorkloads: hosts,
          faults: cut ? { unreachableChild: true, crashingContainer: true } : {},
        });
        const targets = deploymentTargets(gw);
        const hosting = hierarchy(gw)
          .filter(hostsWorkloads)
          .map((d) => d.id);
        const behind = hierarchy(gw).slice(1).some(hostsWorkloads);
        assert.deepEqual(
          targets.map((t) => t.deviceId),
          [...hosting, ...(behind ? [`${gw.id}/*`] : [])],
        );
        for (const t of targets.filter((t) => t.deviceId !== gw.id)) {
          assert.equal(t.faults.unreachableChild === true, cut, 'the gateway cutting a child explains 102/103 behind it');
          assert.equal(t.faults.crashingContainer, undefined, "the gateway's own containers are not its children's");
        }
      },
    ),
    fcOptions(100),
  );
});

test('each fault knob explains only its own codes', () => {
  const cases: [string, DeviceMisbehaviour, string | undefined][] = [
    ['CONTAINER_EXITED', { crashingContainer: true }, 'crashingContainer'],
    ['HEALTHCHECK_TIMEOUT', { unhealthyContainer: true }, 'unhealthyContainer'],
    ['102', { unreachableChild: true }, 'unreachableChild'],
    ['103', { unreachableChild: true }, 'unreachableChild'],
    ['101', { unreachableChild: true }, undefined],
    ['CONTAINER_EXITED', { unhealthyContainer: true, stateLoss: true }, undefined],
    ['DIGEST_MISMATCH', { crashingContainer: true, unhealthyContainer: true, unreachableChild: true }, undefined],
  ];
  for (const [code, faults, fault] of cases) assert.equal(faultExplaining(code, faults), fault, `${code} with ${JSON.stringify(faults)}`);
});

test('outcomes: the last report wins; expected and unexpected failures apart; resyncs and answers counted', () => {
  const unexplained: string[] = [];
  const o = new DeploymentOutcomes((deviceId, code) => unexplained.push(`${deviceId} ${code}`));
  o.assigned('ok', {});
  o.assigned('crash', { crashingContainer: true });
  o.assigned('broken', { crashingContainer: true });
  o.assigned('lost', { stateLoss: true });
  o.assigned('silent', {});
  for (const s of ['pending', 'installing', 'installed']) o.reported('d1', report('ok', s), s === 'pending' ? 201 : 200);
  o.reported('d2', report('crash', 'failed', 'CONTAINER_EXITED'), 201);
  o.reported('d3', report('broken', 'failed', 'ARCHIVE_INVALID'), 201);
  o.reported('d3', report('broken', 'failed', 'ARCHIVE_INVALID'), 200);
  for (const s of ['installed', 'pending', 'installing', 'installed']) o.reported('d4', report('lost', s), 200);
  o.reported('d5', report('not-ours', 'installed'), 422);
  assert.deepEqual(o.totals(), {
    perDevice: 0,
    assigned: 5,
    assignErrors: 0,
    installed: 2,
    failed: { ARCHIVE_INVALID: 1 },
    failedByFault: { CONTAINER_EXITED: 1 },
    pending: 1,
    resynchronized: 1,
    statusResponses: { '201': 3, '200': 7, '422': 1 },
  });
  assert.deepEqual(unexplained, ['d3 ARCHIVE_INVALID'], 'one piece of evidence per failed deployment, not per report');
});

test('--component takes oci://HOST[:PORT]/NAME:REVISION', () => {
  assert.deepEqual(parseComponentRef('oci://127.0.0.1:5000/samples/hello-compose:1.0.0'), {
    name: 'hello-compose',
    repository: 'oci://127.0.0.1:5000/samples/hello-compose',
    revision: '1.0.0',
  });
  for (const bad of ['127.0.0.1/x:1', 'oci://127.0.0.1/x', 'oci://127.0.0.1/UPPER:1.0.0', 'oci://127.0.0.1:5000/x:'])
    assert.equal(parseComponentRef(bad), undefined, bad);
});
