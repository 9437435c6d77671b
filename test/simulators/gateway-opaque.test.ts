// §2.2 opaque gateway: one document aggregated from its children by the spec's rule; children never visible.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeDevice } from '../../simulators/data/describe.ts';
import { createDevice } from '../../simulators/device/driver.ts';
import { clientVariant } from '../../simulators/faults/index.ts';
import { opaqueDocument } from '../../simulators/gateways/opaque.ts';
import { checkOpaqueAggregation } from '../../spec/rules/opaque-aggregation.ts';
import type { DeviceCapabilities, DeploymentStatusReport } from '../../spec/types.ts';
import { assign, describe, publishComponent, requestLine, startHarness, uniqueId, type Harness } from './device-env.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

function opaque(children = 3) {
  const id = uniqueId('ogw');
  const kids = Array.from({ length: children }, (_, i) => describe('plain', `${id}/child-${i}`));
  return describe('opaque-gateway', id, { children: kids });
}

test('§2.2: the document has one cpus entry per child CPU, summed memory and storage, added interfaces', () => {
  const desc = opaque();
  const doc = opaqueDocument(desc, 'spaced');
  const children = desc.children!.map((c) => c.capabilities.properties);
  assert.deepEqual(checkOpaqueAggregation(doc, children, ['compose', 'helm']), []);
  assert.equal(doc.properties.id, desc.id);
  assert.equal(doc.properties.cpus!.length, 3);
  assert.equal(doc.properties.memory, '12 Gi');
});

test('§2.2: a realistic opaque description (simulators/data) is reported as its aggregated document', () => {
  for (let index = 0; index < 20; index++) {
    const desc = describeDevice(7, index, 'opaque-gateway', { children: 1 + (index % 4) });
    assert.deepEqual(opaqueDocument(desc, 'spaced'), desc.capabilities);
  }
});

test('§2.2: the opaque gateway registers only itself and reports deployments as a single device', async () => {
  const desc = opaque();
  const t = await h.newEnv();
  const device = createDevice(desc, t.env);
  await device.start();
  await device.tick();
  const published = await publishComponent(h.registry, h.embedded.registry, 'acme/opaque-web', '1.0.0');
  await assign(h, device.clientId!, desc.id, [{ name: 'web', repository: published.repository, revision: '1.0.0' }]);
  await device.tick();
  const exchanges = t.transcript.all();
  const puts = exchanges.filter((x) => x.method === 'PUT');
  assert.deepEqual(puts.map(requestLine), [`PUT /api/v1/capabilities/${desc.id}`]);
  assert.deepEqual((JSON.parse(puts[0]!.requestBody!) as DeviceCapabilities).properties.cpus!.length, 3);
  assert.ok(
    exchanges.every((x) => !x.url.includes('child-')),
    'no request names a child',
  );
  const last = JSON.parse(exchanges.filter((x) => x.url.endsWith('/status')).at(-1)!.requestBody!) as DeploymentStatusReport;
  assert.equal(last.deviceId, undefined);
  assert.equal(last.status.state, 'installed');
});

test("the gateway's document is read once per opaque document (a fleet's description makes it again on each later read)", () => {
  const desc = opaque(2);
  let reads = 0;
  const counted = Object.defineProperty({ ...desc }, 'capabilities', {
    get: () => (reads++, desc.capabilities),
  });
  assert.deepEqual(opaqueDocument(counted, 'spaced'), opaqueDocument(desc, 'spaced'));
  assert.equal(reads, 1);
});

test("a clean opaque gateway reads each child's document once per document it sends; a fault that bends the aggregate still sees them", async () => {
  const base = opaque(2);
  let reads = 0;
  const counted = base.children!.map((kid) =>
    Object.defineProperty({ ...kid }, 'capabilities', { get: () => (reads++, kid.capabilities) }),
  );
  const desc = { ...base, children: counted };
  const t = await h.newEnv();
  await createDevice(desc, t.env).start();
  const sent = t.transcript.all().filter((x) => x.method === 'PUT');
  assert.equal(sent.length, 1);
  // opaqueDocument aggregates each child once; nothing else reads them when every decision is clean.
  assert.equal(reads, counted.length);

  const f = await h.newEnv();
  const faulty = createDevice({ ...base, id: uniqueId('ogw') }, { ...f.env, decisions: clientVariant(['GW-OPAQUE-AGG-MEMORY']) });
  await faulty.start();
  const doc = JSON.parse(f.transcript.all().find((x) => x.method === 'PUT')!.requestBody!) as DeviceCapabilities;
  const children = base.children!.map((c) => c.capabilities.properties);
  assert.deepEqual(
    checkOpaqueAggregation(doc, children, ['compose', 'helm']).map((x) => x.rule),
    ['opaque-memory-summed'],
  );
});
