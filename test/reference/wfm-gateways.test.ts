// §2.2, §4.1, §4.2, §7: see-thru gateway hierarchies on the reference WFM.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, capabilitiesPath, hostingDoc, identityOnlyDoc, onboarded, putDevice, startHarness, type Harness } from './wfm-harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

test('§2.2 an identity-only see-thru gateway document is accepted', async () => {
  const { device } = await onboarded(h);
  assert.equal((await putDevice(h, device, identityOnlyDoc('gw-id'))).status, 201);
});

test('§2.2 rule 3: a child before its gateway gets 404', async () => {
  const { device, clientId } = await onboarded(h);
  const res = await putDevice(h, device, hostingDoc('gw1/child1'));
  assert.equal(res.status, 404);
  assert.deepEqual(h.wfm.state.devices(clientId), {});
  assert.equal((await putDevice(h, device, identityOnlyDoc('gw1'))).status, 201);
  assert.equal((await putDevice(h, device, hostingDoc('gw1/child1'))).status, 201);
});

test('§4.1 a deeper child with a missing intermediate gets 404, and the intermediate is not registered', async () => {
  const { device, clientId } = await onboarded(h);
  await putDevice(h, device, identityOnlyDoc('gw2'));
  assert.equal((await putDevice(h, device, hostingDoc('gw2/mid/leaf'))).status, 404);
  assert.deepEqual(Object.keys(h.wfm.state.devices(clientId)), ['gw2']);
  assert.equal((await putDevice(h, device, identityOnlyDoc('gw2/mid'))).status, 201);
  assert.equal((await putDevice(h, device, hostingDoc('gw2/mid/leaf'))).status, 201);
});

test("§2.2 another client's gateway does not count", async () => {
  const a = await onboarded(h);
  const b = await onboarded(h);
  await putDevice(h, a.device, identityOnlyDoc('gw3'));
  assert.equal((await putDevice(h, b.device, hostingDoc('gw3/child'))).status, 404);
});

test('§4.2 deleting a child keeps the gateway; deleting a gateway removes the devices behind it', async () => {
  const { device, clientId } = await onboarded(h);
  for (const id of ['gw4', 'gw4/a', 'gw4/a/x', 'gw4/b', 'gw40']) {
    await putDevice(h, device, id === 'gw4' || id === 'gw4/a' ? identityOnlyDoc(id) : hostingDoc(id));
  }
  assert.equal((await call(h, { method: 'DELETE', path: capabilitiesPath('gw4/b'), device })).status, 204);
  assert.deepEqual(Object.keys(h.wfm.state.devices(clientId)).sort(), ['gw4', 'gw4/a', 'gw4/a/x', 'gw40']);
  assert.equal((await call(h, { method: 'DELETE', path: capabilitiesPath('gw4'), device })).status, 204);
  assert.deepEqual(Object.keys(h.wfm.state.devices(clientId)), ['gw40']);
  assert.equal((await putDevice(h, device, hostingDoc('gw4/a'))).status, 404);
});

test('§2.2 a partial document (some hosting fields only) is a semantic error', async () => {
  const { device } = await onboarded(h);
  const doc = identityOnlyDoc('gw5');
  doc.properties.cpus = [{ cores: 1 }];
  assert.equal((await putDevice(h, device, doc)).status, 422);
});
