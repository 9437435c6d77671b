// Applying one compose component on a simulated device (§2.7, §4.7, §4.8), against a loopback reference registry.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOSTILE_ARCHIVES, benignEntries, buildTarGz, type ArchiveEntrySpec } from '../../fixtures/archives/build.ts';
import { startRegistry, type RunningRegistry } from '../../reference/registry/server.ts';
import { digestOf } from '../../spec/rules/desired-state.ts';
import { applyComposeComponent, parseRepository, timeoutMs, type ComposeApplyOptions } from '../../simulators/device/compose-apply.ts';
import type { DeviceMisbehaviour } from '../../simulators/device/types.ts';
import { RegistryClient } from '../../simulators/registry-client.ts';
import { createTransport, type UndiciTransport } from '../../simulators/transport/undici-transport.ts';
import { publishComponent } from './device-env.ts';

let registry: RunningRegistry;
let transport: UndiciTransport;
let client: RegistryClient;
let n = 0;

before(async () => {
  registry = await startRegistry();
  transport = createTransport({ baseUrl: registry.url });
  client = new RegistryClient({ transport });
});
after(async () => {
  await transport.close();
  await registry.close();
});

function options(faults: DeviceMisbehaviour = {}, slept: number[] = []): ComposeApplyOptions {
  return {
    registry: (url) => {
      assert.equal(url, `oci://${new URL(registry.url).host}`);
      return client;
    },
    vendor: 'platform',
    faults,
    timeScale: 0.001,
    sleep: async (ms) => void slept.push(ms),
  };
}

async function component(entries?: ArchiveEntrySpec[], props: { wait?: boolean; timeout?: string } = {}) {
  const name = `acme/c${++n}`;
  const published = await publishComponent(client, registry.url, name, '1.2.3', entries ? { entries } : {});
  return { name: 'web', properties: { repository: published.repository, revision: published.revision, wait: true, ...props } };
}

const HEALTHY_COMPOSE = `services:
  web:
    image: nginx:1.27
    healthcheck:
      test: ["CMD", "curl", "-f", "http://localhost"]
`;
const withHealthcheck = (): ArchiveEntrySpec[] => [
  { name: 'web-app/', type: 'directory' },
  { name: 'web-app/compose.yaml', content: HEALTHY_COMPOSE },
];

test('§4.7 §2.7: a conforming component is pulled, verified, judged and started: installed', async () => {
  assert.deepEqual(await applyComposeComponent(await component(), options()), { state: 'installed' });
});

for (const [defect, { entries, rule }] of Object.entries(HOSTILE_ARCHIVES)) {
  test(`§2.7 rule 7: hostile archive "${defect}" is refused before extraction (${rule})`, async () => {
    // The crashing fault is on: had any container been started, the code would be CONTAINER_EXITED.
    const outcome = await applyComposeComponent(await component(entries), options({ crashingContainer: true }));
    assert.equal(outcome.state, 'failed');
    assert.ok(outcome.state === 'failed');
    assert.equal(outcome.error.code, 'ARCHIVE_INVALID');
    assert.equal(outcome.error.source, 'web');
    assert.match(outcome.error.message, new RegExp(`refused before extraction: §2\\.7 rules? \\d.*\\[${rule}\\]`));
  });
}

test('§2.7 rule 8: a blob that does not hash to its digest is refused before the archive is read', async () => {
  const name = `acme/tampered${++n}`;
  // Unique bytes: the registry stores blobs by digest, and no other test may be served the tampered ones.
  const good = await buildTarGz(benignEntries('web-app', [{ name: 'web-app/nonce.txt', content: name }]));
  // A faulty registry: the digest of a good archive, bytes that are not even gzip.
  registry.store.putBlob(name, digestOf(good), Buffer.from('tampered bytes'));
  const published = await publishComponent(client, registry.url, name, '1.0.0', { layerDigest: digestOf(good) });
  const outcome = await applyComposeComponent(
    { name: 'web', properties: { repository: published.repository, revision: '1.0.0' } },
    options(),
  );
  assert.ok(outcome.state === 'failed');
  assert.equal(outcome.error.code, 'DIGEST_MISMATCH', 'not ARCHIVE_INVALID: the archive was never read');
  assert.match(outcome.error.message, /§2\.7 rule 8/);
});

test('§2.7: the layer version annotation must match the revision', async () => {
  const name = `acme/badver${++n}`;
  const published = await publishComponent(client, registry.url, name, '1.0.0', {
    annotations: { 'org.platform.component.version': '1.0.1' },
  });
  const outcome = await applyComposeComponent(
    { name: 'web', properties: { repository: published.repository, revision: '1.0.0' } },
    options(),
  );
  assert.ok(outcome.state === 'failed');
  assert.equal(outcome.error.code, 'MANIFEST_INVALID');
  assert.match(outcome.error.message, /MUST match the OCI tag and revision/);
});

test('§4.7: a component the registry does not have fails with the registry answer', async () => {
  const outcome = await applyComposeComponent(
    { name: 'web', properties: { repository: `oci://${new URL(registry.url).host}/acme/none`, revision: '9.9.9' } },
    options(),
  );
  assert.ok(outcome.state === 'failed');
  assert.equal(outcome.error.code, 'MANIFEST_UNAVAILABLE');
});

test('§2.7: a repository that is not oci://host/name is refused', async () => {
  const outcome = await applyComposeComponent({ name: 'web', properties: { repository: 'https://x/y', revision: '1.0.0' } }, options());
  assert.ok(outcome.state === 'failed');
  assert.equal(outcome.error.code, 'REPOSITORY_INVALID');
  assert.deepEqual(parseRepository('oci://127.0.0.1:5000/acme/web'), {
    registryUrl: 'oci://127.0.0.1:5000',
    host: '127.0.0.1:5000',
    name: 'acme/web',
  });
});

test('§4.8 rule 2: a container that exits non-zero during startup fails the component immediately', async () => {
  const slept: number[] = [];
  const outcome = await applyComposeComponent(
    await component(withHealthcheck()),
    options({ crashingContainer: true, unhealthyContainer: true }, slept),
  );
  assert.ok(outcome.state === 'failed');
  assert.equal(outcome.error.code, 'CONTAINER_EXITED');
  assert.match(outcome.error.message, /§4\.8 rule 2: container of service "web"/);
  assert.deepEqual(slept, [], 'no waiting for a timeout');
});

test('§4.8 rule 3: with health checks that never pass, the component waits its timeout (scaled), then fails', async () => {
  const slept: number[] = [];
  const outcome = await applyComposeComponent(
    await component(withHealthcheck(), { timeout: '2m30s' }),
    options({ unhealthyContainer: true }, slept),
  );
  assert.ok(outcome.state === 'failed');
  assert.equal(outcome.error.code, 'HEALTHCHECK_TIMEOUT');
  assert.deepEqual(slept, [150_000 * 0.001]);
});

test('§4.8: the unhealthy fault needs health checks and wait: true to matter', async () => {
  assert.deepEqual(await applyComposeComponent(await component(), options({ unhealthyContainer: true })), { state: 'installed' });
  assert.deepEqual(
    await applyComposeComponent(await component(withHealthcheck(), { wait: false }), options({ unhealthyContainer: true })),
    { state: 'installed' },
  );
});

test('slowInstallMs waits (scaled) before the containers run', async () => {
  const slept: number[] = [];
  await applyComposeComponent(await component(), options({ slowInstallMs: 2000 }, slept));
  assert.deepEqual(slept, [2]);
});

test('timeout grammar ^\\d+m\\d+s$, with the default for anything else', () => {
  assert.equal(timeoutMs('1m5s'), 65_000);
  assert.equal(timeoutMs('0m0s'), 0);
  assert.equal(timeoutMs('90s'), 300_000);
});
