// DeviceApiClient against the reference WFM over HTTPS: the §1 client sequence end to end (P2-P4 readings).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyObject } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { DeviceApiClient } from '../../simulators/device-api.ts';
import { Transcript } from '../../simulators/transport/transcript.ts';
import { createTransport, type UndiciTransport } from '../../simulators/transport/undici-transport.ts';
import type { RequestSigner } from '../../simulators/transport/types.ts';
import { digestOf } from '../../spec/rules/desired-state.ts';
import { resolveProfile } from '../../spec/profile.ts';
import type { StateManifest } from '../../spec/types.ts';
import { x509 } from '../../spec/x509.ts';
import { hostingDoc, newDevice, startHarness, type Device, type Harness } from '../reference/wfm-harness.ts';

let h: Harness;
let transport: UndiciTransport;
const transcript = new Transcript();
before(async () => {
  h = await startHarness();
  transport = createTransport({ baseUrl: h.wfm.url, ca: h.rootCa.certPem, transcript, testId: 'device-api', timeoutMs: 3_000 });
});
after(async () => {
  await transport.close();
  await h.close();
});

const components = [{ name: 'web', repository: 'oci://registry.example/web', revision: '1.0.0' }];

function signerOf(device: Device): RequestSigner {
  return { keyId: device.keyId, privateKey: KeyObject.from(device.issued.keys.privateKey), algorithm: 'ecdsa-p256-sha256' };
}

async function onboardedClient(): Promise<{ client: DeviceApiClient; device: Device }> {
  const device = await newDevice(h.deviceCa);
  const client = new DeviceApiClient({ transport, profile: h.profile, signer: signerOf(device) });
  const { response } = await client.onboard(device.certificate);
  assert.equal(response.status, 201, response.text());
  return { client, device };
}

test('P2 fetchRootCa: the PEM of the WFM root CA, decoded from {certificate}', async () => {
  const client = new DeviceApiClient({ transport, profile: h.profile });
  const { response, pem, problem } = await client.fetchRootCa();
  assert.equal(response.status, 200);
  assert.equal(problem, undefined);
  assert.equal(new x509.X509Certificate(pem!).toString('base64'), h.rootCa.cert.toString('base64'));
  assert.equal(response.exchange.requestHeaders['signature'], undefined, 'the Certificate API is unauthenticated');
});

test('§4.3 onboard: 201 with a clientId the client keeps; unsigned onboarding is refused', async () => {
  const { client } = await onboardedClient();
  assert.match(client.clientId ?? '', /^[A-Za-z0-9._~=-]+$/);
  const device = await newDevice(h.deviceCa);
  const unsigned = new DeviceApiClient({ transport, profile: h.profile });
  const { response, clientId } = await unsigned.onboard(device.certificate);
  // P3: the missing Content-Digest is refused first (400), before the missing signature (401).
  assert.equal(response.status, 400);
  assert.equal(clientId, undefined);
  assert.equal(unsigned.clientId, undefined);
});

test('§3 PUT capabilities: 201 created, then 200 updated; DELETE 204, then 404', async () => {
  const { client } = await onboardedClient();
  assert.equal((await client.putCapabilities('dev1', hostingDoc('dev1'))).status, 201);
  assert.equal((await client.putCapabilities('dev1', hostingDoc('dev1', { memory: '32 Gi' }))).status, 200);
  assert.equal((await client.deleteCapabilities('dev1')).status, 204);
  assert.equal((await client.deleteCapabilities('dev1')).status, 404);
});

test('raw bodies travel the same signed path: not JSON is 400', async () => {
  const { client } = await onboardedClient();
  const res = await client.putCapabilities('dev1', '{"properties": ');
  assert.equal(res.status, 400);
  assert.equal(res.exchange.requestHeaders['content-type'], 'application/json');
  assert.ok(res.exchange.requestHeaders['signature']);
  assert.equal((await client.putCapabilities('dev1', Buffer.from(JSON.stringify(hostingDoc('dev1'))))).status, 201);
});

test('P4 desired state: 200 with ETag, 304 for that ETag, 200 after an assignment; YAML and bundle by relative URL', async () => {
  const { client } = await onboardedClient();
  await client.putCapabilities('dev1', hostingDoc('dev1'));
  const first = await client.getDesiredState();
  assert.equal(first.status, 200);
  const etag = first.headers['etag']!;
  assert.equal((await client.getDesiredState(client.clientId, { etag })).status, 304);
  const { deploymentId } = await h.wfm.hooks.assignDeployment({
    clientId: client.clientId!,
    deviceId: 'dev1',
    applicationId: 'shop',
    components,
  });
  const changed = await client.getDesiredState(client.clientId, { etag });
  assert.equal(changed.status, 200);
  const manifest = changed.json<StateManifest>();
  const [entry] = manifest.deployments;
  assert.equal(entry!.deploymentId, deploymentId);
  assert.ok(entry!.url.startsWith('/'), 'the reference serves relative URLs');
  const yaml = await client.getDeploymentYaml(entry!.url);
  assert.equal(yaml.status, 200);
  assert.equal(digestOf(yaml.body), entry!.digest);
  const bundle = await client.getBundle(manifest.bundle!.url);
  assert.equal(bundle.status, 200);
  assert.equal(digestOf(bundle.body), manifest.bundle!.digest);
  assert.ok(gunzipSync(bundle.body).length > 0);
});

test('§4.4 postStatus: 201 created, then 200 updated', async () => {
  const { client } = await onboardedClient();
  await client.putCapabilities('dev1', hostingDoc('dev1'));
  const { deploymentId } = await h.wfm.hooks.assignDeployment({
    clientId: client.clientId!,
    deviceId: 'dev1',
    applicationId: 'shop',
    components,
  });
  const { manifestVersion } = (await client.getDesiredState()).json<StateManifest>();
  const report = (state: 'installing' | 'installed') => ({
    apiVersion: 'v1',
    kind: 'DeploymentStatusManifest' as const,
    deploymentId,
    adoptedManifestVersion: manifestVersion,
    status: { state },
    components: [{ name: 'web', state }],
  });
  assert.equal((await client.postStatus(deploymentId, report('installing'))).status, 201);
  assert.equal((await client.postStatus(deploymentId, report('installed'))).status, 200);
  assert.equal((await client.postStatus(deploymentId, 'not json')).status, 400);
});

test('P3 client-scoped paths: capabilities under /api/v1/clients/{clientId}/', async () => {
  const scoped = await startHarness({ profile: resolveProfile({ paths: 'client-scoped' }) });
  const t = createTransport({ baseUrl: scoped.wfm.url, ca: scoped.rootCa.certPem });
  try {
    const device = await newDevice(scoped.deviceCa);
    const client = new DeviceApiClient({ transport: t, profile: scoped.profile, signer: signerOf(device) });
    await client.onboard(device.certificate);
    const res = await client.putCapabilities('dev1', hostingDoc('dev1'));
    assert.equal(res.status, 201);
    assert.ok(res.exchange.url.endsWith(`/api/v1/clients/${client.clientId}/capabilities/dev1`));
  } finally {
    await t.close();
    await scoped.close();
  }
});

test('every exchange is in the transcript under the transport test id', () => {
  const mine = transcript.forTest('device-api');
  assert.ok(mine.length >= 20);
  assert.ok(mine.every((x) => x.requestHeaders['wfmck-test-id'] === 'device-api'));
});

test('throughput: sequential signed PUTs over keep-alive (measured, not judged)', async (t) => {
  const { device: onboarded } = await onboardedClient();
  const quiet = createTransport({ baseUrl: h.wfm.url, ca: h.rootCa.certPem });
  const device = new DeviceApiClient({ transport: quiet, profile: h.profile, signer: signerOf(onboarded) });
  const count = 300;
  const started = performance.now();
  for (let i = 0; i < count; i++) assert.ok([200, 201].includes((await device.putCapabilities('dev1', hostingDoc('dev1'))).status));
  const seconds = (performance.now() - started) / 1000;
  t.diagnostic(`${count} sequential signed PUTs in ${seconds.toFixed(2)} s: ${(count / seconds).toFixed(0)} requests/s`);
  await quiet.close();
});

test('P2 fetchRootCa reads PEM, DER and garbage alike through the same bytes: the answer kept for one body is never handed to another', async () => {
  const pem = h.rootCa.certPem;
  const der = h.rootCa.cert.rawData;
  const bodies = [
    Buffer.from(pem).toString('base64'),
    Buffer.from(der).toString('base64'),
    Buffer.from('not a certificate').toString('base64'),
    Buffer.from(der).toString('base64'),
  ];
  let i = 0;
  const scripted = {
    request: async () => {
      const bytes = Buffer.from(JSON.stringify({ certificate: bodies[i++] }));
      const exchange = { id: 'x', method: 'GET', url: 'https://wfm.test/', requestHeaders: {}, startedAt: '', durationMs: 1, attempt: 1 };
      return { status: 200, headers: {}, body: bytes, text: () => bytes.toString(), json: () => JSON.parse(bytes.toString()), exchange };
    },
    close: async () => {},
  };
  const client = new DeviceApiClient({ transport: scripted, profile: h.profile });
  const read = async () => {
    const { pem: got, problem } = await client.fetchRootCa();
    return got ? new x509.X509Certificate(got).toString('base64') : problem;
  };
  const want = h.rootCa.cert.toString('base64');
  assert.equal(await read(), want, 'base64 of a PEM');
  assert.equal(await read(), want, 'base64 of DER');
  assert.match((await read())!, /neither a PEM nor a DER certificate/);
  assert.equal(await read(), want, 'a good body after a bad one reads good again');
});
