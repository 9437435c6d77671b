// §2.4, §2.4.1, §4.4, §7, P7: deployment status reports on the reference WFM.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeploymentStatusReport } from '../../spec/types.ts';
import { call, hostingDoc, identityOnlyDoc, onboarded, putDevice, startHarness, type Device, type Harness } from './wfm-harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const COMPONENTS = [
  { name: 'web', repository: 'oci://registry.example/web', revision: '1.0.0' },
  { name: 'db', repository: 'oci://registry.example/db', revision: '2.1.0' },
];

async function assigned(deviceId = 'dev1'): Promise<{ device: Device; clientId: string; deploymentId: string }> {
  const { device, clientId } = await onboarded(h);
  const gateway = deviceId.split('/')[0]!;
  await putDevice(h, device, gateway === deviceId ? hostingDoc(deviceId) : identityOnlyDoc(gateway));
  if (gateway !== deviceId && !deviceId.endsWith('/*')) await putDevice(h, device, hostingDoc(deviceId));
  const { deploymentId } = await h.wfm.hooks.assignDeployment({ clientId, deviceId, applicationId: 'shop', components: COMPONENTS });
  return { device, clientId, deploymentId };
}

function report(deploymentId: string, over: Partial<DeploymentStatusReport> = {}): DeploymentStatusReport {
  return {
    apiVersion: 'deployment.platform.org/v1alpha1',
    kind: 'DeploymentStatusManifest',
    deploymentId,
    adoptedManifestVersion: 2,
    status: { state: 'installing' },
    components: [
      { name: 'web', state: 'installed' },
      { name: 'db', state: 'installing' },
    ],
    ...over,
  };
}

const post = (device: Device, deploymentId: string, body: unknown) =>
  call(h, { method: 'POST', path: `/api/v1/deployments/${deploymentId}/status`, body, device });

test('§4.4 the first report is 201, the next 200, and the last one is stored', async () => {
  const { device, clientId, deploymentId } = await assigned();
  assert.equal((await post(device, deploymentId, report(deploymentId))).status, 201);
  const second = report(deploymentId, {
    status: { state: 'installed' },
    components: COMPONENTS.map((c) => ({ name: c.name, state: 'installed' as const })),
  });
  assert.equal((await post(device, deploymentId, second)).status, 200);
  assert.equal(h.wfm.state.statuses(clientId)[deploymentId]!.status.state, 'installed');
});

test('P7 both no-error forms are accepted, and apiVersion/kind may be left out', async () => {
  const { device, deploymentId } = await assigned();
  const empty = { code: '', source: '', message: '' };
  const withEmpty = report(deploymentId, {
    status: { state: 'installing', error: empty },
    components: COMPONENTS.map((c) => ({ name: c.name, state: 'installing' as const, error: empty })),
  });
  assert.equal((await post(device, deploymentId, withEmpty)).status, 201);
  const { apiVersion: _a, kind: _k, ...bare } = report(deploymentId);
  assert.equal((await post(device, deploymentId, bare)).status, 200);
});

test('§2.4 422: a missing component, an extra component, a duplicate component', async () => {
  const { device, deploymentId } = await assigned();
  const cases = [
    [{ name: 'web', state: 'installed' }],
    [...report(deploymentId).components, { name: 'cache', state: 'pending' }],
    [
      { name: 'web', state: 'installed' },
      { name: 'web', state: 'installed' },
      { name: 'db', state: 'pending' },
    ],
  ];
  for (const components of cases) {
    const res = await post(device, deploymentId, report(deploymentId, { components: components as never }));
    assert.equal(res.status, 422, JSON.stringify(components));
    assert.ok(res.json.details.length > 0);
  }
});

test('§4.4 422: an unknown deployment, or a body deploymentId that differs from the path', async () => {
  const { device, deploymentId } = await assigned();
  const unknown = '11111111-2222-4333-8444-555555555555';
  assert.equal((await post(device, unknown, report(unknown))).status, 422);
  assert.equal((await post(device, deploymentId, report(unknown))).status, 422);
});

test("§4.4 422: another client's deployment", async () => {
  const { deploymentId } = await assigned();
  const other = await onboarded(h);
  assert.equal((await post(other.device, deploymentId, report(deploymentId))).status, 422);
});

test('§2.4.1 422: an adoptedManifestVersion never served for the deployment', async () => {
  const { device, deploymentId } = await assigned();
  for (const v of [0, 1, 3, 99]) {
    assert.equal((await post(device, deploymentId, report(deploymentId, { adoptedManifestVersion: v }))).status, 422, String(v));
  }
});

test('§7 400: not JSON, wrong types, missing fields', async () => {
  const { device, deploymentId } = await assigned();
  for (const body of [
    'nope',
    'null',
    '[]',
    JSON.stringify({ ...report(deploymentId), adoptedManifestVersion: 'two' }),
    JSON.stringify({ ...report(deploymentId), status: [{ state: 'installed' }] }),
    JSON.stringify({ deploymentId }),
  ]) {
    const res = await post(device, deploymentId, body);
    assert.equal(res.status, 400, body);
  }
});

test('§2.4 deviceId: a child deployment needs it, and it must be that child', async () => {
  const { device, deploymentId } = await assigned('gw/cam');
  assert.equal((await post(device, deploymentId, report(deploymentId))).status, 422, 'missing deviceId');
  assert.equal((await post(device, deploymentId, report(deploymentId, { deviceId: 'gw/other' }))).status, 422);
  assert.equal((await post(device, deploymentId, report(deploymentId, { deviceId: 'cam' }))).status, 422, 'not the full hierarchy');
  assert.equal((await post(device, deploymentId, report(deploymentId, { deviceId: 'gw/cam' }))).status, 201);
});

test('§2.4 deviceId: for gw/* the gateway chooses a registered child', async () => {
  const { device, deploymentId } = await assigned('gw/*');
  await putDevice(h, device, hostingDoc('gw/cam'));
  assert.equal((await post(device, deploymentId, report(deploymentId, { deviceId: 'gw/ghost' }))).status, 422);
  assert.equal((await post(device, deploymentId, report(deploymentId, { deviceId: 'other/cam' }))).status, 422);
  assert.equal((await post(device, deploymentId, report(deploymentId, { deviceId: 'gw/cam' }))).status, 201);
});

test('a removed deployment takes reports until the client says removed', async () => {
  const { device, clientId, deploymentId } = await assigned();
  await h.wfm.hooks.removeDeployment({ clientId, deviceId: 'dev1', deploymentId });
  const removing = report(deploymentId, {
    adoptedManifestVersion: 3,
    status: { state: 'removing' },
    components: COMPONENTS.map((c) => ({ name: c.name, state: 'removing' as const })),
  });
  assert.equal((await post(device, deploymentId, removing)).status, 201);
  const removed = report(deploymentId, {
    adoptedManifestVersion: 3,
    status: { state: 'removed' },
    components: COMPONENTS.map((c) => ({ name: c.name, state: 'removed' as const })),
  });
  assert.equal((await post(device, deploymentId, removed)).status, 200);
  assert.equal((await post(device, deploymentId, removed)).status, 422, 'forgotten after removed');
});

test('assignDeployment with a deploymentId updates it: the next manifest carries a new revision, and each report is judged by the revision its version names', async () => {
  const { device, clientId, deploymentId } = await assigned();
  const v1 = h.wfm.state.manifestVersion(clientId)!;
  const updated = await h.wfm.hooks.assignDeployment({
    clientId,
    deviceId: 'dev1',
    applicationId: 'shop',
    components: [...COMPONENTS, { name: 'cache', repository: 'oci://registry.example/cache', revision: '1.0.0' }],
    deploymentId,
  });
  assert.equal(updated.deploymentId, deploymentId, 'the same deployment, a new revision');
  const both = COMPONENTS.map((c) => ({ name: c.name, state: 'installed' as const }));
  assert.equal(
    (
      await post(
        device,
        deploymentId,
        report(deploymentId, { adoptedManifestVersion: v1, status: { state: 'installed' }, components: both }),
      )
    ).status,
    201,
    '§2.4.1 rule 3: a client on the older revision reports it',
  );
  const three = [...both, { name: 'cache', state: 'installing' as const }];
  assert.equal(
    (await post(device, deploymentId, report(deploymentId, { adoptedManifestVersion: v1 + 1, components: three }))).status,
    200,
    'the newer revision, with its three components',
  );
  assert.equal(
    (await post(device, deploymentId, report(deploymentId, { adoptedManifestVersion: v1 + 1, components: both }))).status,
    422,
    'the newer version with the older components',
  );
  await assert.rejects(
    h.wfm.hooks.assignDeployment({
      clientId,
      deviceId: 'dev1',
      applicationId: 'shop',
      components: COMPONENTS,
      deploymentId: '11111111-2222-4333-8444-555555555555',
    }),
    /no deployment .* to update/,
  );
});
