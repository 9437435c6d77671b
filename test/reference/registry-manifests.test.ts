// Pushing, pulling and deleting manifests (distribution-spec v1.1 "Pulling manifests", "Pushing Manifests",
// "Deleting tags", "Deleting Manifests"), and the Accept decision documented in reference/registry/decisions.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OCI_INDEX, OCI_MANIFEST } from '../../spec/media-types.ts';
import { EMPTY_CONFIG, digestOf, errorCodes, imageManifest, pushBlob, pushImage, putManifest, useRegistry } from './registry-helpers.ts';

const registry = useRegistry();
const base = () => registry.current.url;
const manifestUrl = (name: string, reference: string) => `${base()}/v2/${name}/manifests/${reference}`;
const layer = { mediaType: 'application/vnd.platform.app.description.v1+yaml', bytes: 'metadata:\n  version: 1.0.0\n' };

test('PUT by tag: 201 with Location and Docker-Content-Digest of the exact bytes', async () => {
  await pushBlob(base(), 'acme/app', '{}');
  await pushBlob(base(), 'acme/app', layer.bytes);
  // Odd spacing on purpose: the registry must keep the pushed bytes, not a re-serialisation.
  const bytes = JSON.stringify(imageManifest([layer]), null, 3) + '\n';
  const res = await putManifest(base(), 'acme/app', '1.0.0', bytes);
  assert.equal(res.status, 201);
  const digest = digestOf(bytes);
  assert.equal(res.headers.get('docker-content-digest'), digest);
  assert.equal(res.headers.get('location'), `/v2/acme/app/manifests/${digest}`);
  assert.equal(await (await fetch(manifestUrl('acme/app', '1.0.0'))).text(), bytes);
});

test('GET by tag and by digest: 200, exact bytes, Content-Type = mediaType, Docker-Content-Digest, Content-Length', async () => {
  const { digest, bytes } = await pushImage(base(), 'acme/app', '1.0.0', [layer]);
  for (const reference of ['1.0.0', digest]) {
    const res = await fetch(manifestUrl('acme/app', reference), { headers: { Accept: OCI_MANIFEST } });
    assert.equal(res.status, 200, reference);
    assert.equal(res.headers.get('content-type'), OCI_MANIFEST);
    assert.equal(res.headers.get('docker-content-digest'), digest);
    assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(bytes)));
    assert.equal(await res.text(), bytes);
  }
});

test('HEAD by tag and by digest: 200 with the headers and no body', async () => {
  const { digest, bytes } = await pushImage(base(), 'acme/app', '1.0.0');
  for (const reference of ['1.0.0', digest]) {
    const res = await fetch(manifestUrl('acme/app', reference), { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('docker-content-digest'), digest);
    assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(bytes)));
    assert.equal(await res.text(), '');
  }
});

test('without Accept, with */*, or with a non-matching Accept the stored manifest is still served (200)', async () => {
  const { digest } = await pushImage(base(), 'acme/app', '1.0.0');
  for (const accept of [undefined, '*/*', 'application/vnd.docker.distribution.manifest.v2+json']) {
    const res = await fetch(manifestUrl('acme/app', '1.0.0'), accept ? { headers: { Accept: accept } } : {});
    assert.equal(res.status, 200, String(accept));
    assert.equal(res.headers.get('content-type'), OCI_MANIFEST);
    assert.equal(res.headers.get('docker-content-digest'), digest);
  }
});

test('unknown tag or digest is 404 MANIFEST_UNKNOWN; unknown repository 404 NAME_UNKNOWN', async () => {
  await pushImage(base(), 'acme/app', '1.0.0');
  for (const reference of ['2.0.0', digestOf('nope'), 'bad$tag']) {
    const res = await fetch(manifestUrl('acme/app', reference));
    assert.equal(res.status, 404, reference);
    assert.deepEqual(await errorCodes(res), ['MANIFEST_UNKNOWN']);
  }
  const res = await fetch(manifestUrl('acme/none', '1.0.0'));
  assert.equal(res.status, 404);
  assert.deepEqual(await errorCodes(res), ['NAME_UNKNOWN']);
});

test('a manifest referencing a blob missing from the repository is 400 MANIFEST_BLOB_UNKNOWN, one error per blob', async () => {
  await pushBlob(base(), 'acme/app', '{}');
  await pushBlob(base(), 'acme/other', 'layer-a');
  const manifest = imageManifest([
    { mediaType: 'application/octet-stream', bytes: 'layer-a' },
    { mediaType: 'application/octet-stream', bytes: 'layer-b' },
  ]);
  const res = await putManifest(base(), 'acme/app', 'v1', manifest);
  assert.equal(res.status, 400);
  const body = (await res.json()) as { errors: { code: string; detail: { digest: string } }[] };
  assert.deepEqual(
    body.errors.map((e) => e.code),
    ['MANIFEST_BLOB_UNKNOWN', 'MANIFEST_BLOB_UNKNOWN'],
  );
  assert.deepEqual(
    body.errors.map((e) => e.detail.digest),
    [digestOf('layer-a'), digestOf('layer-b')],
  );
  assert.equal((await fetch(manifestUrl('acme/app', 'v1'))).status, 404);
});

test('the config blob must exist too', async () => {
  await pushBlob(base(), 'acme/app', 'layer');
  const res = await putManifest(base(), 'acme/app', 'v1', imageManifest([{ mediaType: 'application/octet-stream', bytes: 'layer' }]));
  assert.deepEqual(await errorCodes(res), ['MANIFEST_BLOB_UNKNOWN']);
});

test('an index must reference manifests of the repository', async () => {
  const { digest, bytes } = await pushImage(base(), 'acme/app', 'amd64');
  const entry = { mediaType: OCI_MANIFEST, digest, size: Buffer.byteLength(bytes) };
  const missing = { mediaType: OCI_MANIFEST, digest: digestOf('absent'), size: 1 };
  const bad = await putManifest(
    base(),
    'acme/app',
    'multi',
    { schemaVersion: 2, mediaType: OCI_INDEX, manifests: [entry, missing] },
    OCI_INDEX,
  );
  assert.equal(bad.status, 400);
  assert.deepEqual(await errorCodes(bad), ['MANIFEST_BLOB_UNKNOWN']);
  const good = await putManifest(base(), 'acme/app', 'multi', { schemaVersion: 2, mediaType: OCI_INDEX, manifests: [entry] }, OCI_INDEX);
  assert.equal(good.status, 201);
  assert.equal((await fetch(manifestUrl('acme/app', 'multi'))).headers.get('content-type'), OCI_INDEX);
});

test('malformed manifests are 400 MANIFEST_INVALID', async () => {
  await pushBlob(base(), 'acme/app', '{}');
  const valid = { schemaVersion: 2, mediaType: OCI_MANIFEST, config: EMPTY_CONFIG, layers: [] };
  const cases: [string, unknown, string?][] = [
    ['not JSON', '{nope'],
    ['not an object', '[1,2]'],
    ['schemaVersion 1', { ...valid, schemaVersion: 1 }],
    ['unknown media type', { ...valid, mediaType: 'application/json' }, 'application/json'],
    ['Content-Type differs from mediaType', valid, OCI_INDEX],
    ['no config', { ...valid, config: undefined }],
    ['layers not an array', { ...valid, layers: {} }],
    ['bad descriptor digest', { ...valid, config: { ...EMPTY_CONFIG, digest: 'sha256:zz' } }],
    ['negative size', { ...valid, config: { ...EMPTY_CONFIG, size: -1 } }],
    ['non-string annotation', { ...valid, annotations: { a: 1 } }],
    ['invalid tag', valid],
  ];
  for (const [label, manifest, contentType] of cases) {
    const reference = label === 'invalid tag' ? '-bad' : 'v1';
    const res = await putManifest(base(), 'acme/app', reference, manifest, contentType);
    assert.equal(res.status, 400, label);
    assert.deepEqual(await errorCodes(res), ['MANIFEST_INVALID'], label);
  }
});

test('without a mediaType field the Content-Type names the type', async () => {
  await pushBlob(base(), 'acme/app', '{}');
  const res = await putManifest(base(), 'acme/app', 'v1', { schemaVersion: 2, config: EMPTY_CONFIG, layers: [] }, OCI_MANIFEST);
  assert.equal(res.status, 201);
  assert.equal((await fetch(manifestUrl('acme/app', 'v1'))).headers.get('content-type'), OCI_MANIFEST);
});

test('PUT by digest: 201 when the digest matches the bytes, 400 DIGEST_INVALID when not', async () => {
  await pushBlob(base(), 'acme/app', '{}');
  const bytes = JSON.stringify({ schemaVersion: 2, mediaType: OCI_MANIFEST, config: EMPTY_CONFIG, layers: [] });
  const ok = await putManifest(base(), 'acme/app', digestOf(bytes), bytes);
  assert.equal(ok.status, 201);
  assert.equal(ok.headers.get('docker-content-digest'), digestOf(bytes));
  const wrong = await putManifest(base(), 'acme/app', digestOf('other'), bytes);
  assert.equal(wrong.status, 400);
  assert.deepEqual(await errorCodes(wrong), ['DIGEST_INVALID']);
  assert.deepEqual(registry.current.store.tags('acme/app'), [], 'a push by digest creates no tag');
});

test('retagging moves the tag to the new manifest', async () => {
  await pushImage(base(), 'acme/app', 'latest', [{ mediaType: 'application/octet-stream', bytes: 'one' }]);
  const second = await pushImage(base(), 'acme/app', 'latest', [{ mediaType: 'application/octet-stream', bytes: 'two' }]);
  assert.equal((await fetch(manifestUrl('acme/app', 'latest'))).headers.get('docker-content-digest'), second.digest);
});

test('DELETE by tag removes the tag only; DELETE by digest removes the manifest and its tags', async () => {
  const { digest, bytes } = await pushImage(base(), 'acme/app', '1.0.0');
  await putManifest(base(), 'acme/app', 'stable', bytes);
  assert.equal((await fetch(manifestUrl('acme/app', 'stable'), { method: 'DELETE' })).status, 202);
  assert.equal((await fetch(manifestUrl('acme/app', 'stable'))).status, 404);
  assert.equal((await fetch(manifestUrl('acme/app', digest))).status, 200);
  assert.equal((await fetch(manifestUrl('acme/app', digest), { method: 'DELETE' })).status, 202);
  assert.equal((await fetch(manifestUrl('acme/app', '1.0.0'))).status, 404);
  assert.equal((await fetch(manifestUrl('acme/app', digest))).status, 404);
  const again = await fetch(manifestUrl('acme/app', digest), { method: 'DELETE' });
  assert.equal(again.status, 404);
  assert.deepEqual(await errorCodes(again), ['MANIFEST_UNKNOWN']);
});
