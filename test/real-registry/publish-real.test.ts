// The kit's publish path and registry client against a registry it did not write: Debian's docker-registry.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAppPackage } from '../../simulators/publish/app-package.ts';
import type { BuiltArtifact } from '../../simulators/publish/artifact.ts';
import { buildComposeArchive, buildComposeArtifact } from '../../simulators/publish/compose.ts';
import { pushArtifact } from '../../simulators/publish/push.ts';
import { composeComponentFindings } from '../../spec/rules/compose-file.ts';
import { readTarGz } from '../../spec/rules/tar-read.ts';
import { validate } from '../../spec/schemas/index.ts';
import { connect, HELLO_APP, HELLO_COMPOSE, type Connected } from '../publish/helpers.ts';
import { useRealRegistry } from './probe.ts';

const real = useRealRegistry();
let kit: Connected;
let app: BuiltArtifact;
let compose: BuiltArtifact;

before(async () => {
  kit = connect((await real.ready()).url);
  app = await buildAppPackage(HELLO_APP);
  compose = buildComposeArtifact((await buildComposeArchive(HELLO_COMPOSE)).bytes, { version: '1.0.0', title: 'hello-compose' });
});
after(() => kit?.transport.close());

const requests = () => kit.transcript.all().map((x) => `${x.method} ${new URL(x.url).pathname.replace(/[0-9a-f-]{36}$/, '<uuid>')}`);

test('§4.7 an app package pushes with POST then PUT (never a single POST) and pulls back with an OCI Accept header', async () => {
  const before = kit.transcript.all().length;
  const pushed = await pushArtifact(kit.client, 'samples/hello-app', app);
  assert.equal(pushed.skipped, 0);
  const sent = kit.transcript.all().slice(before);
  assert.ok(
    sent.filter((x) => x.method === 'POST').every((x) => !new URL(x.url).searchParams.has('digest')),
    'no single-POST upload',
  );
  const manifest = await kit.client.getManifest('samples/hello-app', '1.0.0');
  assert.equal(manifest.response.status, 200);
  assert.match(manifest.response.exchange.requestHeaders['accept'] ?? '', /application\/vnd\.oci\.image\.manifest\.v1\+json/);
  assert.deepEqual(Buffer.from(manifest.bytes), Buffer.from(app.manifest));
  assert.deepEqual(validate('AppPackageManifest', JSON.parse(new TextDecoder().decode(manifest.bytes))), { ok: true });
  for (const blob of app.blobs)
    assert.deepEqual(Buffer.from((await kit.client.getBlob('samples/hello-app', blob.digest)).bytes), Buffer.from(blob.bytes));
});

test('§4.7 a second push to the real registry skips every blob', async () => {
  await pushArtifact(kit.client, 'samples/again', app);
  const pushed = await pushArtifact(kit.client, 'samples/again', app);
  assert.equal(pushed.skipped, pushed.blobs.length);
});

test('§4.7 a compose component pushes in chunks, each PATCH to the Location the previous answer gave', async () => {
  const before = kit.transcript.all().length;
  await pushArtifact(kit.client, 'samples/hello-compose', compose, { chunkSize: 64 });
  const sent = kit.transcript.all().slice(before);
  const patches = sent.filter((x) => x.method === 'PATCH');
  assert.ok(patches.length > 2);
  for (let i = 1; i < patches.length; i++) {
    const previous = sent[sent.indexOf(patches[i]!) - 1]!;
    if (previous.method === 'PATCH') assert.equal(patches[i]!.url, new URL(previous.responseHeaders!['location']!, previous.url).href);
  }
  const pulled = await kit.client.getManifest('samples/hello-compose', '1.0.0');
  assert.deepEqual(Buffer.from(pulled.bytes), Buffer.from(compose.manifest));
  const layer = await kit.client.getBlob('samples/hello-compose', compose.blobs[1]!.digest);
  assert.deepEqual(composeComponentFindings(await readTarGz(layer.bytes)), []);
});

test('§2.7 the tag list of a published package names metadata.version', async () => {
  await pushArtifact(kit.client, 'samples/tags', app);
  const { tags, problem } = await kit.client.allTags('samples/tags');
  assert.deepEqual([tags, problem], [['1.0.0'], undefined]);
  assert.ok(requests().includes('GET /v2/samples/tags/tags/list'));
});
