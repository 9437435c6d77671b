// The simulated device end to end against the embedded reference services: §1 sequence, §2.4 reports, compose
// components pulled from the embedded registry (§2.7, §4.7, §4.8), faults, and §2.4.1 across a state loss.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOSTILE_ARCHIVES, benignEntries, buildTarGz } from '../../fixtures/archives/build.ts';
import { startRegistry } from '../../reference/registry/server.ts';
import { digestOf } from '../../spec/rules/desired-state.ts';
import { createDevice } from '../../simulators/device/driver.ts';
import type { DeviceEvent, DeviceMisbehaviour } from '../../simulators/device/types.ts';
import { RegistryClient } from '../../simulators/registry-client.ts';
import type { Transcript } from '../../simulators/transport/transcript.ts';
import { createTransport } from '../../simulators/transport/undici-transport.ts';
import type { DeploymentStatusReport } from '../../spec/types.ts';
import { assign, describe, publishComponent, requestLine, startHarness, uniqueId, type Harness } from './device-env.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

async function plainDevice(faults: DeviceMisbehaviour = {}) {
  const t = await h.newEnv();
  const device = createDevice(describe('plain', uniqueId('dev'), {}, faults), t.env);
  await device.start();
  assert.equal(device.phase, 'reporting');
  return { device, ...t };
}

async function component(name: string, opts: Parameters<typeof publishComponent>[4] = {}) {
  const published = await publishComponent(h.registry, h.embedded.registry, `acme/${name}`, '1.0.0', opts);
  return { name, repository: published.repository, revision: published.revision };
}

function statusReports(transcript: Transcript): DeploymentStatusReport[] {
  return transcript
    .all()
    .filter((x) => x.method === 'POST' && x.url.endsWith('/status'))
    .map((x) => JSON.parse(x.requestBody!) as DeploymentStatusReport);
}

const deploymentEvents = (events: DeviceEvent[]) =>
  events.filter((e): e is Extract<DeviceEvent, { type: 'deployment' }> => e.type === 'deployment');
const unexpected = (events: DeviceEvent[]) => events.filter((e) => (e.type === 'response' && !e.expected) || e.type === 'transport-error');

test('§1: a plain device goes from nothing to reporting: root CA, onboarding, capabilities, desired state', async () => {
  const { device, events, transcript } = await plainDevice();
  assert.match(device.clientId!, /^[0-9a-f-]{36}$/);
  assert.deepEqual(
    events.filter((e) => e.type === 'phase').map((e) => (e as { phase: string }).phase),
    ['ca-fetched', 'onboarded', 'reporting'],
  );
  await device.tick();
  assert.deepEqual(transcript.all().map(requestLine), [
    'GET /api/v1/onboarding/certificate',
    'POST /api/v1/onboarding',
    `PUT /api/v1/capabilities/${device.id}`,
    `GET /api/v1/clients/${device.clientId}/deployments`,
  ]);
  assert.deepEqual(unexpected(events), []);
});

test('§1 step 6: capabilities are the first exchange after onboarding', async () => {
  const { events } = await plainDevice();
  const endpoints = events.filter((e) => e.type === 'response').map((e) => (e as { endpoint: string }).endpoint);
  assert.equal(endpoints[endpoints.indexOf('onboarding') + 1], 'capabilities.put');
});

test('§2.4: an assigned deployment is pulled, installed and reported with one entry per component', async () => {
  const { device, events, transcript } = await plainDevice();
  await device.tick();
  const deploymentId = await assign(h, device.clientId!, device.id, [await component('web'), await component('db')]);
  await device.tick();
  const reports = statusReports(transcript);
  assert.deepEqual(
    reports.map((r) => r.status.state),
    ['pending', 'installing', 'pending', 'installing', 'installed'],
  );
  const last = reports.at(-1)!;
  assert.equal(last.deploymentId, deploymentId);
  assert.equal(last.kind, 'DeploymentStatusManifest');
  assert.equal(last.deviceId, undefined);
  assert.deepEqual(last.components, [
    { name: 'web', state: 'installed' },
    { name: 'db', state: 'installed' },
  ]);
  assert.ok(
    reports.every((r) => r.adoptedManifestVersion === 2),
    'adopted from manifest 2, the first that carried it',
  );
  assert.deepEqual(unexpected(events), [], 'the reference WFM accepted every report');
  const pulls = events.filter((e) => e.type === 'response' && e.endpoint === 'registry');
  assert.equal(pulls.length, 4, 'a manifest and a blob per component');
  assert.equal(deploymentEvents(events).at(-1)!.state, 'installed');
});

test('§2.7 rule 7: a hostile archive is refused before extraction and reported failed with the rule', async () => {
  const { device, transcript } = await plainDevice({ crashingContainer: true });
  const hostile = HOSTILE_ARCHIVES['symlink-out']!;
  await device.tick();
  await assign(h, device.clientId!, device.id, [await component('evil', { entries: hostile.entries })]);
  await device.tick();
  const last = statusReports(transcript).at(-1)!;
  assert.equal(last.status.state, 'failed');
  assert.equal(last.components[0]!.error!.code, 'ARCHIVE_INVALID', 'refused before any container could crash');
  assert.match(last.components[0]!.error!.message, /§2\.7 rule 7.*\[link-out-of-top\]/);
  assert.equal(last.status.error!.source, nameOf(transcript), '§2.4 source rule 2: the deployment name');
});

/** metadata.name of the one deployment the transcript fetched (§2.4 source rule 2). */
function nameOf(transcript: Transcript): string {
  const yaml = transcript.all().find((x) => /\/deployments\/[^/]+\/sha256:/.test(x.url))!.responseBody!;
  return /name: (\S+)/.exec(yaml)![1]!;
}

test('§2.7 rule 8: a blob that fails its digest is refused before extraction (a tampered registry)', async () => {
  const tampered = await startRegistry();
  const transport = createTransport({ baseUrl: tampered.url });
  try {
    const client = new RegistryClient({ transport });
    const good = await buildTarGz(benignEntries('web-app', [{ name: 'web-app/nonce', content: uniqueId('n') }]));
    tampered.store.putBlob('acme/web', digestOf(good), Buffer.from('not the archive'));
    const published = await publishComponent(client, tampered.url, 'acme/web', '1.0.0', { layerDigest: digestOf(good) });
    const t = await h.newEnv();
    t.env.registry = () => client;
    const device = createDevice(describe('plain', uniqueId('dev')), t.env);
    await device.start();
    await device.tick();
    await assign(h, device.clientId!, device.id, [{ name: 'web', repository: published.repository, revision: '1.0.0' }]);
    await device.tick();
    const error = statusReports(t.transcript).at(-1)!.components[0]!.error!;
    assert.equal(error.code, 'DIGEST_MISMATCH');
    assert.match(error.message, /§2\.7 rule 8/);
  } finally {
    await transport.close();
    await tampered.close();
  }
});

test('§4.8 rule 2: the crashing container fault reports failed immediately after installing', async () => {
  const { device, transcript } = await plainDevice({ crashingContainer: true });
  await device.tick();
  await assign(h, device.clientId!, device.id, [await component('crashy')]);
  await device.tick();
  const reports = statusReports(transcript);
  assert.deepEqual(
    reports.map((r) => r.status.state),
    ['pending', 'installing', 'failed'],
  );
  assert.equal(reports.at(-1)!.components[0]!.error!.code, 'CONTAINER_EXITED');
  assert.equal(reports.at(-1)!.adoptedManifestVersion, 2, '§2.4.1 rule 5: a failed first install reports the version adopted');
});

test('§2.4.1 end to end: unchanged deployments keep their version; a state loss resyncs; removal reports the removing manifest', async () => {
  const { device, events } = await plainDevice({ stateLoss: true });
  await device.tick();
  const d1 = await assign(h, device.clientId!, device.id, [await component('one')]);
  await device.tick();
  const d2 = await assign(h, device.clientId!, device.id, [await component('two')]);
  // The loss strikes at this tick (d1 is installed): the device polls without its ETag and resynchronizes against 3.
  await device.tick();
  await h.embedded.hooks['removeDeployment']!({ clientId: device.clientId!, deviceId: device.id, deploymentId: d1 });
  await device.tick();
  const seen = deploymentEvents(events).map(
    (e) => `${e.deploymentId === d1 ? 'd1' : e.deploymentId === d2 ? 'd2' : '?'}:${e.state}@${e.adoptedManifestVersion}`,
  );
  assert.deepEqual(seen, [
    'd1:pending@2',
    'd1:installing@2',
    'd1:installed@2',
    'd1:pending@3',
    'd2:pending@3',
    'd1:installing@3',
    'd1:installed@3',
    'd2:installing@3',
    'd2:installed@3',
    'd1:removing@4',
    'd1:removed@4',
  ]);
  assert.deepEqual(unexpected(events), []);
});

test('§2.1: flapping capabilities are sent again when they change, and the WFM updates them (200)', async () => {
  const { device, events, transcript } = await plainDevice({ flappingCapabilities: true });
  for (let i = 0; i < 3; i++) await device.tick();
  const puts = transcript.all().filter((x) => x.method === 'PUT');
  assert.deepEqual(
    puts.map((x) => x.status),
    [201, 200],
  );
  const memory = puts.map((x) => (JSON.parse(x.requestBody!) as { properties: { memory: string } }).properties.memory);
  assert.deepEqual(memory, ['4 Gi', '3 Gi']);
  assert.deepEqual(unexpected(events), []);
});

test('§2.1: told its reported information changed, the device PUTs its own document again at once (200), changed', async () => {
  const { device, transcript } = await plainDevice();
  await device.changeCapabilities();
  const puts = transcript.all().filter((x) => x.method === 'PUT');
  assert.deepEqual(
    puts.map((x) => x.status),
    [201, 200],
  );
  assert.notEqual(puts[1]!.requestBody, puts[0]!.requestBody);
});

test('a restart from its disk: the device keeps its client and deployments, sends its capabilities first, and reports nothing anew', async () => {
  const { device, env, transcript } = await plainDevice();
  await device.tick();
  await assign(h, device.clientId!, device.id, [await component('web')]);
  await device.tick();
  const before = transcript.all().length;
  const restarted = createDevice(describe('plain', device.id), { ...env, restored: device.snapshot() });
  await restarted.start();
  await restarted.tick();
  assert.equal(restarted.clientId, device.clientId, 'no onboarding again');
  const after = transcript.all().slice(before);
  assert.deepEqual(
    after.map((x) => `${requestLine(x)} ${x.status}`),
    [`PUT /api/v1/capabilities/${device.id} 200`, `GET /api/v1/clients/${device.clientId}/deployments 304`],
  );
});

test('§7: a retired client gets 403 and the device stops', async () => {
  const { device } = await plainDevice();
  await h.embedded.hooks['retireClient']!({ clientId: device.clientId! });
  await device.tick();
  assert.equal(device.phase, 'failed');
});
