// P4 desired state on the reference WFM: state manifest, ETag/304/406, versions, deployment YAMLs and bundles.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';
import { parse } from 'yaml';
import { digestOf } from '../../spec/rules/desired-state.ts';
import { validate } from '../../spec/schemas/index.ts';
import type { ApplicationDeployment, StateManifest } from '../../spec/types.ts';
import { call, hostingDoc, onboarded, putDevice, startHarness, type Device, type Harness } from './wfm-harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const MANIFEST_TYPE = 'application/vnd.platform.manifest.v1+json';
const components = [{ name: 'web', repository: 'oci://registry.example/web', revision: '1.0.0' }];

async function client(): Promise<{ device: Device; clientId: string; get: (headers?: Record<string, string>) => ReturnType<typeof call> }> {
  const { device, clientId } = await onboarded(h);
  await putDevice(h, device, hostingDoc('dev1'));
  return {
    device,
    clientId,
    get: (headers = {}) => call(h, { method: 'GET', path: `/api/v1/clients/${clientId}/deployments`, device, headers }),
  };
}

async function untar(gz: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const ex = extract();
  const done = (async () => {
    for await (const entry of ex) {
      const chunks: Buffer[] = [];
      for await (const c of entry) chunks.push(c as Buffer);
      files.set(entry.header.name, Buffer.concat(chunks));
    }
  })();
  ex.end(gunzipSync(gz));
  await done;
  return files;
}

test('P4 200: a new client gets manifestVersion 1, bundle null, no deployments, ETag and Cache-Control', async () => {
  const c = await client();
  const res = await c.get({ accept: MANIFEST_TYPE });
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], MANIFEST_TYPE);
  assert.deepEqual(res.json, { manifestVersion: 1, bundle: null, deployments: [] });
  assert.equal(res.headers['etag'], `"${digestOf(res.bytes)}"`);
  assert.equal(res.headers['cache-control'], 'private');
  assert.deepEqual(validate('StateManifest', res.json), { ok: true });
});

test('P4 304 when If-None-Match matches, 200 again after a change', async () => {
  const c = await client();
  const etag = (await c.get()).headers['etag'] as string;
  const same = await c.get({ 'if-none-match': etag });
  assert.equal(same.status, 304);
  assert.equal(same.bytes.length, 0);
  assert.equal((await c.get({ 'if-none-match': `W/${etag}, "other"` })).status, 304);
  await h.wfm.hooks.assignDeployment({ clientId: c.clientId, deviceId: 'dev1', applicationId: 'shop', components });
  assert.equal((await c.get({ 'if-none-match': etag })).status, 200);
});

test('P4 Accept: absent, */*, application/*, application/json and the vendor type are served; others 406', async () => {
  const c = await client();
  for (const accept of ['*/*', 'application/*', 'application/json', MANIFEST_TYPE, 'text/html, application/json;q=0.5']) {
    assert.equal((await c.get({ accept })).status, 200, accept);
  }
  assert.equal((await c.get({ accept: 'application/json' })).headers['content-type'], 'application/json');
  for (const accept of ['text/html', 'application/xml', 'application/vnd.other.manifest.v1+json', 'application/json;q=0']) {
    const res = await c.get({ accept });
    assert.equal(res.status, 406, accept);
    assert.equal(typeof res.json.error, 'string');
  }
});

test('§2.4.1 rule 7: manifestVersion increases on assign and on remove and never repeats', async () => {
  const c = await client();
  const versions = [(await c.get()).json.manifestVersion];
  const a = await h.wfm.hooks.assignDeployment({ clientId: c.clientId, deviceId: 'dev1', applicationId: 'shop', components });
  versions.push((await c.get()).json.manifestVersion);
  const b = await h.wfm.hooks.assignDeployment({ clientId: c.clientId, deviceId: 'dev1', applicationId: 'blog', components });
  versions.push((await c.get()).json.manifestVersion);
  await h.wfm.hooks.removeDeployment({ clientId: c.clientId, deviceId: 'dev1', deploymentId: a.deploymentId });
  const afterRemove = (await c.get()).json as StateManifest;
  versions.push(afterRemove.manifestVersion);
  assert.deepEqual(
    afterRemove.deployments.map((d) => d.deploymentId),
    [b.deploymentId],
  );
  await h.wfm.hooks.removeDeployment({ clientId: c.clientId, deviceId: 'dev1', deploymentId: b.deploymentId });
  const empty = (await c.get()).json as StateManifest;
  versions.push(empty.manifestVersion);
  assert.deepEqual(versions, [1, 2, 3, 4, 5]);
  assert.equal(empty.bundle, null);
});

test('P4 concurrent assignments never share a manifestVersion', async () => {
  const c = await client();
  await Promise.all(
    [1, 2, 3, 4].map((i) => h.wfm.hooks.assignDeployment({ clientId: c.clientId, deviceId: 'dev1', applicationId: `app${i}`, components })),
  );
  const m = (await c.get()).json as StateManifest;
  assert.equal(m.manifestVersion, 5);
  assert.equal(m.deployments.length, 4);
});

test('P4 each deployment URL serves YAML whose bytes hash to its digest; a wrong digest is 404', async () => {
  const c = await client();
  const { deploymentId } = await h.wfm.hooks.assignDeployment({
    clientId: c.clientId,
    deviceId: 'dev1',
    applicationId: 'shop',
    components,
  });
  const m = (await c.get()).json as StateManifest;
  assert.deepEqual(validate('StateManifest', m), { ok: true });
  const entry = m.deployments[0]!;
  assert.equal(entry.deploymentId, deploymentId);
  assert.equal(entry.url, `/api/v1/clients/${c.clientId}/deployments/${deploymentId}/${entry.digest}`);
  const yaml = await call(h, { method: 'GET', path: entry.url, device: c.device });
  assert.equal(yaml.status, 200);
  assert.equal(yaml.headers['content-type'], 'application/yaml');
  assert.equal(digestOf(yaml.bytes), entry.digest);
  assert.equal(entry.sizeBytes, yaml.bytes.length);
  const doc = parse(yaml.text) as ApplicationDeployment;
  assert.deepEqual(validate('ApplicationDeployment', doc), { ok: true });
  assert.equal(doc.metadata.annotations.id, deploymentId);
  assert.equal(doc.metadata.annotations.applicationId, 'shop');
  assert.equal(doc.metadata.deviceId, 'dev1');
  assert.equal(doc.metadata.namespace, c.clientId);
  assert.equal(doc.apiVersion, 'application.platform.org/v1alpha1');
  assert.deepEqual(doc.spec.deploymentProfile, {
    type: 'compose',
    components: [{ name: 'web', properties: { repository: components[0]!.repository, revision: '1.0.0', wait: true, timeout: '5m0s' } }],
  });
  const wrong = entry.url.replace(/[0-9a-f]$/, (d) => (d === '0' ? '1' : '0'));
  assert.equal((await call(h, { method: 'GET', path: wrong, device: c.device })).status, 404);
});

test('P4 the bundle holds exactly the deployment YAMLs, is immutable, and is stable', async () => {
  const c = await client();
  const ids = [];
  for (const app of ['shop', 'blog'])
    ids.push((await h.wfm.hooks.assignDeployment({ clientId: c.clientId, deviceId: 'dev1', applicationId: app, components })).deploymentId);
  const m = (await c.get()).json as StateManifest;
  const res = await call(h, { method: 'GET', path: m.bundle!.url, device: c.device });
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'application/vnd.platform.bundle.v1+tar+gzip');
  assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(digestOf(res.bytes), m.bundle!.digest);
  const files = await untar(res.bytes);
  assert.deepEqual([...files.keys()].sort(), ids.map((id) => `${id}.yaml`).sort());
  for (const d of m.deployments) assert.equal(digestOf(files.get(`${d.deploymentId}.yaml`)!), d.digest);
  const again = await call(h, { method: 'GET', path: m.bundle!.url, device: c.device });
  assert.deepEqual(again.bytes, res.bytes);
  assert.equal(
    (await call(h, { method: 'GET', path: `/api/v1/clients/${c.clientId}/bundles/sha256:${'0'.repeat(64)}`, device: c.device })).status,
    404,
  );
});

test("P4 403: another client's manifest, YAML or bundle", async () => {
  const a = await client();
  const b = await client();
  await h.wfm.hooks.assignDeployment({ clientId: a.clientId, deviceId: 'dev1', applicationId: 'shop', components });
  const m = (await a.get()).json as StateManifest;
  for (const path of [`/api/v1/clients/${a.clientId}/deployments`, m.deployments[0]!.url, m.bundle!.url]) {
    assert.equal((await call(h, { method: 'GET', path, device: b.device })).status, 403, path);
  }
  assert.equal((await call(h, { method: 'GET', path: `/api/v1/clients/${a.clientId}/deployments` })).status, 401);
});

test('P5 assignDeployment refuses an unknown device, an unknown client and a bad revision', async () => {
  const c = await client();
  await assert.rejects(h.wfm.hooks.assignDeployment({ clientId: c.clientId, deviceId: 'ghost', applicationId: 'x', components }));
  await assert.rejects(h.wfm.hooks.assignDeployment({ clientId: 'nobody', deviceId: 'dev1', applicationId: 'x', components }));
  await assert.rejects(
    h.wfm.hooks.assignDeployment({
      clientId: c.clientId,
      deviceId: 'dev1',
      applicationId: 'x',
      components: [{ ...components[0]!, revision: 'v1.0' }],
    }),
  );
  assert.equal((await c.get()).json.manifestVersion, 1);
});
