// §2.1, §3, §4.1, §4.2, §5, §7: PUT and DELETE capabilities on the reference WFM.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveProfile } from '../../spec/profile.ts';
import { call, capabilitiesPath, hostingDoc, newDevice, onboarded, putDevice, startHarness, type Harness } from './wfm-harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

test('§3 PUT creates (201) then updates (200)', async () => {
  const { device, clientId } = await onboarded(h);
  assert.equal((await putDevice(h, device, hostingDoc('dev1'))).status, 201);
  const updated = await putDevice(h, device, hostingDoc('dev1', { memory: '32 Gi' }));
  assert.equal(updated.status, 200);
  assert.equal(h.wfm.state.devices(clientId)['dev1']!.properties.memory, '32 Gi');
});

test('§2.1 an unknown x-*-extensions key and an unknown root key are accepted', async () => {
  const { device } = await onboarded(h);
  const doc = hostingDoc('dev-ext', {}, { 'x-acme-extensions': { firmware: '1.4.2', deep: { a: [1] } }, somethingNew: true });
  assert.equal((await putDevice(h, device, doc)).status, 201);
});

test('§2.1.1 an unknown runtime and deployment type are accepted and stored as custom', async () => {
  const { device, clientId } = await onboarded(h);
  const doc = hostingDoc(
    'dev-wasm',
    { supportedRuntimes: ['wasm', 'oci'], supportedDeploymentTypes: ['helm.v3'] },
    { labels: { 'example.com/runtime': 'wasm' } },
  );
  assert.equal((await putDevice(h, device, doc)).status, 201);
  const stored = h.wfm.state.devices(clientId)['dev-wasm']!.properties;
  assert.deepEqual(stored.supportedRuntimes, ['custom', 'oci']);
  assert.deepEqual(stored.supportedDeploymentTypes, ['custom']);
});

test('§2.1.1 422: custom without labels', async () => {
  const { device } = await onboarded(h);
  const res = await putDevice(h, device, hostingDoc('dev-custom', { supportedRuntimes: ['custom'] }));
  assert.equal(res.status, 422);
  assert.ok(Array.isArray(res.json.details));
});

test('§7 422: properties.id differs from the path deviceId', async () => {
  const { device } = await onboarded(h);
  const res = await call(h, { method: 'PUT', path: capabilitiesPath('dev-a'), body: hostingDoc('dev-b'), device });
  assert.equal(res.status, 422);
});

test('§7 422: a hosting device without otelCollector true', async () => {
  const { device } = await onboarded(h);
  assert.equal((await putDevice(h, device, hostingDoc('dev-otel', { otelCollector: false }))).status, 422);
});

test('§7 400: body not JSON, not an object, schema invalid', async () => {
  const { device } = await onboarded(h);
  const path = capabilitiesPath('dev-bad');
  for (const body of [
    '{"properties":',
    'null',
    '[]',
    '42',
    '"text"',
    JSON.stringify({ labels: {} }),
    JSON.stringify(hostingDoc('dev-bad', { cpus: 'four' as never })),
  ]) {
    const res = await call(h, { method: 'PUT', path, body, device });
    assert.equal(res.status, 400, body);
    assert.equal(typeof res.json.error, 'string');
  }
});

test('§4.1 400: a deviceId path that breaks the grammar', async () => {
  const { device } = await onboarded(h);
  for (const id of ['a%20b', 'a%2Fb', '%zz', 'gw//child', 'gw/']) {
    const res = await call(h, { method: 'PUT', path: `/api/v1/capabilities/${id}`, body: hostingDoc('x'), device });
    assert.equal(res.status, 400, id);
  }
});

test('§4.1 a percent-encoded unreserved character names the same device', async () => {
  const { device, clientId } = await onboarded(h);
  const res = await call(h, { method: 'PUT', path: '/api/v1/capabilities/dev%2Dpct', body: hostingDoc('dev-pct'), device });
  assert.equal(res.status, 201);
  assert.ok(h.wfm.state.devices(clientId)['dev-pct']);
});

test('§4.2 DELETE: 204 then 404; a request body is ignored', async () => {
  const { device } = await onboarded(h);
  await putDevice(h, device, hostingDoc('dev-del'));
  const first = await call(h, { method: 'DELETE', path: capabilitiesPath('dev-del'), device, body: '{"ignored":true}' });
  assert.equal(first.status, 204);
  assert.equal(first.bytes.length, 0);
  assert.equal((await call(h, { method: 'DELETE', path: capabilitiesPath('dev-del'), device })).status, 404);
});

test("§4.2 404: another client's device", async () => {
  const a = await onboarded(h);
  const b = await onboarded(h);
  await putDevice(h, a.device, hostingDoc('shared-id'));
  assert.equal((await call(h, { method: 'DELETE', path: capabilitiesPath('shared-id'), device: b.device })).status, 404);
  assert.equal((await putDevice(h, b.device, hostingDoc('shared-id'))).status, 201, 'the same id is a different device for another client');
});

test('P3 401 unsigned or wrongly signed; 403 never onboarded; 400 wrong digest', async () => {
  const { device } = await onboarded(h);
  const stranger = await newDevice(h.deviceCa);
  const path = capabilitiesPath('dev-auth');
  const body = hostingDoc('dev-auth');
  assert.equal((await call(h, { method: 'DELETE', path })).status, 401);
  assert.equal((await call(h, { method: 'PUT', path, body, device, after: { signature: 'sig1=:AAAA:' } })).status, 401);
  assert.equal((await call(h, { method: 'PUT', path, body, device: stranger })).status, 403);
  assert.equal(
    (
      await call(h, {
        method: 'PUT',
        path,
        body,
        device,
        after: { 'content-digest': 'sha-256=:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=:' },
      })
    ).status,
    400,
  );
});

test('§5 403: a retired client gets 403 on every endpoint', async () => {
  const { device, clientId } = await onboarded(h);
  await putDevice(h, device, hostingDoc('dev-ret'));
  await h.wfm.hooks.retireClient({ clientId });
  const calls = [
    { method: 'PUT', path: capabilitiesPath('dev-ret'), body: hostingDoc('dev-ret') },
    { method: 'DELETE', path: capabilitiesPath('dev-ret') },
    { method: 'POST', path: '/api/v1/deployments/00000000-0000-4000-8000-000000000000/status', body: {} },
    { method: 'GET', path: `/api/v1/clients/${clientId}/deployments` },
    { method: 'GET', path: `/api/v1/clients/${clientId}/bundles/sha256:00` },
  ];
  for (const c of calls) assert.equal((await call(h, { ...c, device })).status, 403, `${c.method} ${c.path}`);
});

test('P3 paths client-scoped: the path clientId must be the caller', async () => {
  const scoped = await startHarness({ profile: resolveProfile({ paths: 'client-scoped' }) });
  try {
    const a = await onboarded(scoped);
    const b = await onboarded(scoped);
    const path = (clientId: string) => `/api/v1/clients/${clientId}/capabilities/dev1`;
    assert.equal((await call(scoped, { method: 'PUT', path: path(a.clientId), body: hostingDoc('dev1'), device: a.device })).status, 201);
    assert.equal((await call(scoped, { method: 'PUT', path: path(a.clientId), body: hostingDoc('dev1'), device: b.device })).status, 403);
    assert.equal(
      (await call(scoped, { method: 'PUT', path: capabilitiesPath('dev1'), body: hostingDoc('dev1'), device: a.device })).status,
      404,
    );
  } finally {
    await scoped.close();
  }
});

test('P3 deviceAuth none: no signatures; the client is named by the wfmck-client-id header', async () => {
  const lab = await startHarness({ profile: resolveProfile({ deviceAuth: 'none' }) });
  try {
    const d = await newDevice(lab.deviceCa);
    const res = await call(lab, {
      method: 'POST',
      path: '/api/v1/onboarding',
      body: { apiVersion: 'v1', kind: 'OnboardingRequest', certificate: d.certificate },
    });
    assert.equal(res.status, 201, res.text);
    const headers = { 'wfmck-client-id': res.json.clientId };
    assert.equal((await call(lab, { method: 'PUT', path: capabilitiesPath('dev1'), body: hostingDoc('dev1'), headers })).status, 201);
    assert.equal((await call(lab, { method: 'PUT', path: capabilitiesPath('dev1'), body: hostingDoc('dev1') })).status, 403);
    const manifest = await call(lab, { method: 'HEAD', path: `/api/v1/clients/${res.json.clientId}/deployments` });
    assert.equal(manifest.status, 200);
    assert.equal(manifest.bytes.length, 0);
  } finally {
    await lab.close();
  }
});
