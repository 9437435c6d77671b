// §2.2 see-thru gateway: registration order at any depth, the identity-only document, reports on behalf of children
// with the full deviceId, reserved codes 101/102/103 (§2.4), and DELETE of a child that goes away.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createSeeThruGateway } from '../../simulators/device/driver.ts';
import type { DeviceDescription, DeviceEvent, DeviceMisbehaviour } from '../../simulators/device/types.ts';
import { hierarchy, placeDeployment, seeThruDocument } from '../../simulators/gateways/see-thru.ts';
import type { DeploymentStatusReport } from '../../spec/types.ts';
import { assign, describe, publishComponent, requestLine, startHarness, uniqueId, type Harness } from './device-env.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

/** gw (hosting or not) -> m1 (non-hosting gateway) -> m1/s1 (non-hosting gateway) -> m1/s1/leaf; gw -> p2. */
function tree(hosts: boolean, faults: DeviceMisbehaviour = {}): DeviceDescription {
  const gw = uniqueId('gw');
  const stg = (id: string, children: DeviceDescription[]) => describe('see-thru-gateway', id, { hostsWorkloads: false, children });
  return describe(
    'see-thru-gateway',
    gw,
    {
      hostsWorkloads: hosts,
      children: [stg(`${gw}/m1`, [stg(`${gw}/m1/s1`, [describe('plain', `${gw}/m1/s1/leaf`)])]), describe('plain', `${gw}/p2`)],
    },
    faults,
  );
}

async function started(desc: DeviceDescription) {
  const t = await h.newEnv();
  const gateway = createSeeThruGateway(desc, t.env);
  await gateway.start();
  assert.equal(gateway.phase, 'reporting');
  await gateway.tick();
  return { gateway, ...t };
}

async function web() {
  const p = await publishComponent(h.registry, h.embedded.registry, 'acme/gw-web', '1.0.0');
  return [{ name: 'web', repository: p.repository, revision: p.revision }];
}

/** Assigns a deployment to `target`, runs one tick, and returns the last report the gateway sent. */
async function deployTo(t: Awaited<ReturnType<typeof started>>, target: string): Promise<DeploymentStatusReport> {
  await assign(h, t.gateway.clientId!, target, await web());
  await t.gateway.tick();
  return reports(t).at(-1)!;
}

/** The gateway's status reports, after checking the reference WFM accepted every request it made. */
function reports(t: {
  transcript: { all(): { method: string; url: string; requestBody?: string }[] };
  events: DeviceEvent[];
}): DeploymentStatusReport[] {
  assert.deepEqual(
    t.events.filter((e) => (e.type === 'response' && !e.expected) || e.type === 'transport-error'),
    [],
  );
  return t.transcript
    .all()
    .filter((x) => x.method === 'POST' && x.url.endsWith('/status'))
    .map((x) => JSON.parse(x.requestBody!));
}

test('§2.2 rules 1-3: the gateway registers itself, then every device behind it, parents first, to depth 3', async () => {
  const desc = tree(false);
  const t = await started(desc);
  const puts = t.transcript.all().filter((x) => x.method === 'PUT');
  assert.deepEqual(
    puts.map(requestLine),
    hierarchy(desc).map((d) => `PUT /api/v1/capabilities/${d.id}`),
  );
  assert.deepEqual(
    puts.map((x) => x.status),
    [201, 201, 201, 201, 201],
  );
  assert.deepEqual(
    Object.keys(JSON.parse(puts[0]!.requestBody!).properties).sort(),
    ['id', 'modelNumber', 'serialNumber', 'vendor'],
    '§2.2: identity fields only',
  );
});

test("§2.4: a deployment for a child is reported by the gateway with the child's full deviceId", async () => {
  const desc = tree(false);
  const t = await started(desc);
  const leaf = `${desc.id}/m1/s1/leaf`;
  const last = await deployTo(t, leaf);
  assert.equal(last.deviceId, leaf);
  assert.equal(last.status.state, 'installed');
});

test('P4 `<gateway>/*`: the gateway places the deployment on a hosting child and reports it as that child', async () => {
  const desc = tree(false);
  const t = await started(desc);
  const last = await deployTo(t, `${desc.id}/*`);
  assert.equal(last.deviceId, `${desc.id}/m1/s1/leaf`, 'the first live, reachable, hosting device behind the gateway');
  assert.equal(last.status.state, 'installed');
});

test('§2.4 code 103: a gateway with no hosting device behind it cannot place `<gateway>/*`', async () => {
  const id = uniqueId('gw');
  const desc = describe('see-thru-gateway', id, {
    hostsWorkloads: false,
    children: [describe('see-thru-gateway', `${id}/m`, { hostsWorkloads: false, children: [] })],
  });
  const t = await started(desc);
  const last = await deployTo(t, `${id}/*`);
  assert.equal(last.status.state, 'failed');
  assert.deepEqual(last.status.error, { code: '103', source: id, message: 'Autonomous placement not supported' });
  assert.deepEqual(
    last.components.map((c) => c.error?.code),
    ['103'],
  );
});

test('§2.4 code 102: with the unreachableChild fault, a deployment behind the first child fails with the gateway as source', async () => {
  const desc = tree(true, { unreachableChild: true });
  const t = await started(desc);
  const leaf = `${desc.id}/m1/s1/leaf`;
  const last = await deployTo(t, leaf);
  assert.equal(last.deviceId, leaf);
  assert.deepEqual(last.status.error, { code: '102', source: desc.id, message: 'Child device unreachable' });
});

test('§2.4 code 101: a child id the gateway does not know', async () => {
  const desc = tree(true);
  const t = await started(desc);
  const ghost = `${desc.id}/ghost`;
  // Registered by the same client, so the WFM assigns to it, but not a device this gateway has behind it.
  assert.equal(
    (await t.env.api.putCapabilities(ghost, seeThruDocument(describe('see-thru-gateway', ghost, { hostsWorkloads: false })))).status,
    201,
  );
  const last = await deployTo(t, ghost);
  assert.equal(last.deviceId, ghost);
  assert.deepEqual(last.status.error, { code: '101', source: desc.id, message: 'Unknown child device ID' });
});

test('§2.2: a child that goes away is DELETEd (its descendants first) and is no longer a device of the client', async () => {
  const desc = tree(false);
  const t = await started(desc);
  await t.gateway.removeChild(`${desc.id}/m1`);
  const deletes = t.transcript.all().filter((x) => x.method === 'DELETE');
  assert.deepEqual(deletes.map(requestLine), [
    `DELETE /api/v1/capabilities/${desc.id}/m1/s1/leaf`,
    `DELETE /api/v1/capabilities/${desc.id}/m1/s1`,
    `DELETE /api/v1/capabilities/${desc.id}/m1`,
  ]);
  assert.deepEqual(
    deletes.map((x) => x.status),
    [204, 204, 204],
  );
  await assert.rejects(assign(h, t.gateway.clientId!, `${desc.id}/m1`, await web()), /has no device/);
  await t.gateway.stop();
  assert.deepEqual(
    t.transcript
      .all()
      .filter((x) => x.method === 'DELETE')
      .slice(3)
      .map(requestLine),
    [`DELETE /api/v1/capabilities/${desc.id}/p2`],
  );
  assert.equal(t.gateway.phase, 'stopped');
});

test('placement rules, pure: own id, child, unknown, departed, non-hosting intermediate', () => {
  const devices = hierarchy(tree(true));
  const gw = devices[0]!.id;
  const all = () => true;
  assert.deepEqual(placeDeployment(devices, gw, all), { host: 0 });
  assert.deepEqual(placeDeployment(devices, undefined, all), { host: 0 });
  assert.deepEqual(placeDeployment(devices, `${gw}/p2`, all), { host: 4, reportAs: `${gw}/p2` });
  assert.equal((placeDeployment(devices, `${gw}/p2`, (i) => i !== 4) as { refusal: { code: string } }).refusal.code, '101');
  assert.equal((placeDeployment(devices, `${gw}/m1`, all) as { refusal: { code: string } }).refusal.code, 'NOT_HOSTING');
  assert.deepEqual(placeDeployment(devices, `${gw}/m1/*`, all), { host: 3, reportAs: `${gw}/m1/s1/leaf` });
});

test("the gateway's document is read once per see-thru document (a fleet's description makes it again on each later read)", () => {
  for (const hostsWorkloads of [false, true]) {
    const desc: DeviceDescription = { ...describe('see-thru-gateway', uniqueId('sgw'), { children: [] }), hostsWorkloads };
    let reads = 0;
    const counted = Object.defineProperty({ ...desc }, 'capabilities', { get: () => (reads++, desc.capabilities) });
    assert.deepEqual(seeThruDocument(counted), seeThruDocument(desc));
    assert.equal(reads, 1, `hostsWorkloads ${hostsWorkloads}`);
  }
});
