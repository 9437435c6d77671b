// §4.7 upload workflow against the reference registry over HTTPS: monolithic and chunked pushes, skips, pull-back.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAppPackage } from '../../simulators/publish/app-package.ts';
import { buildComposeArchive, buildComposeArtifact } from '../../simulators/publish/compose.ts';
import { pushArtifact } from '../../simulators/publish/push.ts';
import type { BuiltArtifact } from '../../simulators/publish/artifact.ts';
import { HELLO_APP, HELLO_COMPOSE, useHttpsReferenceRegistry } from './helpers.ts';

const target = useHttpsReferenceRegistry();
const methods = () => target.transcript.all().map((x) => x.method);
let app: BuiltArtifact;
let compose: BuiltArtifact;

before(async () => {
  app = await buildAppPackage(HELLO_APP);
  compose = buildComposeArtifact((await buildComposeArchive(HELLO_COMPOSE)).bytes, { version: '1.0.0' });
});

/** Pulls the manifest by tag and every blob by digest, and checks they are the bytes that were built. */
async function assertPulledBack(repository: string, built: BuiltArtifact): Promise<void> {
  const manifest = await target.client.getManifest(repository, built.tag);
  assert.equal(manifest.response.status, 200);
  assert.deepEqual(Buffer.from(manifest.bytes), Buffer.from(built.manifest));
  for (const blob of built.blobs) {
    const pulled = await target.client.getBlob(repository, blob.digest);
    assert.equal(pulled.response.status, 200, blob.digest);
    assert.deepEqual(Buffer.from(pulled.bytes), Buffer.from(blob.bytes));
  }
}

test('§4.7 an app package pushed monolithically (POST then PUT) pulls back byte for byte', async () => {
  const pushed = await pushArtifact(target.client, 'samples/hello-app', app);
  assert.equal(pushed.manifestDigest, app.manifestDigest);
  assert.equal(pushed.skipped, 0);
  assert.equal(pushed.blobs.length, app.blobs.length);
  assert.ok(!methods().includes('PATCH'));
  await assertPulledBack('samples/hello-app', app);
});

test('§4.7 a second push of the same package uploads nothing: every blob is skipped after HEAD', async () => {
  await pushArtifact(target.client, 'samples/again', app);
  const before = methods().length;
  const pushed = await pushArtifact(target.client, 'samples/again', app);
  assert.equal(pushed.skipped, pushed.blobs.length);
  assert.deepEqual(methods().slice(before), [...pushed.blobs.map(() => 'HEAD'), 'PUT']);
});

test('§4.7 a compose component pushed in chunks (PATCH with Content-Range) pulls back byte for byte', async () => {
  const before = methods().length;
  const pushed = await pushArtifact(target.client, 'samples/hello-compose', compose, { chunkSize: 100 });
  assert.equal(pushed.manifestDigest, compose.manifestDigest);
  const archiveSize = compose.blobs[1]!.bytes.byteLength;
  const patches = methods()
    .slice(before)
    .filter((m) => m === 'PATCH').length;
  assert.equal(patches, Math.ceil(2 / 100) + Math.ceil(archiveSize / 100));
  await assertPulledBack('samples/hello-compose', compose);
});

test('§2.7 tags: the package is listed under metadata.version', async () => {
  await pushArtifact(target.client, 'samples/tagged', app);
  const { tags } = await target.client.allTags('samples/tagged');
  assert.deepEqual(tags, ['1.0.0']);
});
