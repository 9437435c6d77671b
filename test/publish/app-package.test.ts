// §2.7 application package built from a folder: manifest shape, media types, tag, determinism, refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mediaTypes, OCI_EMPTY_DESCRIPTOR } from '../../spec/media-types.ts';
import { validate } from '../../spec/schemas/index.ts';
import { buildAppPackage, fileFormat } from '../../simulators/publish/app-package.ts';
import { PublishError } from '../../simulators/publish/artifact.ts';
import { HELLO_APP, noisyCopy, writeFolder } from './helpers.ts';

const manifestOf = (bytes: Uint8Array) =>
  JSON.parse(new TextDecoder().decode(bytes)) as {
    artifactType: string;
    config: { digest: string };
    layers: { mediaType: string; digest: string; size: number; annotations: Record<string, string> }[];
  };

const DESCRIPTION = (catalog: string, version = '2.1.0') =>
  `metadata:\n  name: Tiny\n  version: ${JSON.stringify(version)}\n  catalog:\n    application:\n${catalog}`;

test('§2.7 the sample package: artifactType, empty config, one description layer, one layer per resource, tag = metadata.version', async () => {
  const pkg = await buildAppPackage(HELLO_APP);
  const mt = mediaTypes('platform');
  const manifest = manifestOf(pkg.manifest);
  assert.deepEqual(validate('AppPackageManifest', manifest), { ok: true });
  assert.equal(pkg.tag, '1.0.0');
  assert.equal(manifest.artifactType, mt.appArtifact);
  assert.equal(manifest.config.digest, OCI_EMPTY_DESCRIPTOR.digest);
  assert.deepEqual(
    manifest.layers.map((l) => [l.mediaType, l.annotations]),
    [
      [mt.appDescription, { 'org.opencontainers.image.title': 'application.yaml' }],
      [mt.resource('icon', 'png'), { 'org.opencontainers.image.title': 'resources/icon.png', 'org.platform.app.resource': 'icon' }],
      [
        mt.resource('releaseNotes', 'md'),
        { 'org.opencontainers.image.title': 'resources/releaseNotes.md', 'org.platform.app.resource': 'releaseNotes' },
      ],
      [
        mt.resource('descriptionFile', 'md'),
        { 'org.opencontainers.image.title': 'resources/description.md', 'org.platform.app.resource': 'descriptionFile' },
      ],
      [
        mt.resource('licenseFile', 'txt'),
        { 'org.opencontainers.image.title': 'resources/LICENSE.txt', 'org.platform.app.resource': 'licenseFile' },
      ],
    ],
  );
});

test('§2.7 every layer and the config are blobs to push, each with the bytes its descriptor names', async () => {
  const pkg = await buildAppPackage(HELLO_APP);
  const manifest = manifestOf(pkg.manifest);
  assert.deepEqual(
    pkg.blobs.map((b) => b.digest),
    [OCI_EMPTY_DESCRIPTOR.digest, ...manifest.layers.map((l) => l.digest)],
  );
  assert.equal(new TextDecoder().decode(pkg.blobs[0]!.bytes), '{}');
  const icon = await readFile(join(HELLO_APP, 'resources/icon.png'));
  assert.deepEqual(Buffer.from(pkg.blobs[2]!.bytes), icon);
  assert.equal(manifest.layers[1]!.size, icon.byteLength);
});

test('the same folder gives the same manifest digest, twice and from a copy with other mtimes and permissions', async () => {
  const first = await buildAppPackage(HELLO_APP);
  const again = await buildAppPackage(HELLO_APP);
  const copy = await buildAppPackage(await noisyCopy(HELLO_APP));
  assert.equal(again.manifestDigest, first.manifestDigest);
  assert.equal(copy.manifestDigest, first.manifestDigest);
  assert.deepEqual(Buffer.from(copy.manifest), Buffer.from(first.manifest));
});

test('P1 the vendor token goes into every media type and annotation key', async () => {
  const pkg = await buildAppPackage(HELLO_APP, { vendor: 'margo' });
  const manifest = manifestOf(pkg.manifest);
  assert.equal(manifest.artifactType, 'application/vnd.margo.app.v1+json');
  assert.equal(manifest.layers[1]!.mediaType, 'application/vnd.margo.app.icon.v1+png');
  assert.equal(manifest.layers[1]!.annotations['org.margo.app.resource'], 'icon');
  assert.deepEqual(validate('AppPackageManifest', manifest, { vendor: 'margo' }), { ok: true });
});

test('§9 a metadata.version that is not a valid OCI tag is refused', async () => {
  const dir = await writeFolder({ 'app.yaml': DESCRIPTION('      icon: i.png\n', '1.0.0+build.5'), 'i.png': 'x' });
  await assert.rejects(
    buildAppPackage(dir),
    (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_VERSION' && /not a valid OCI tag/.test(e.message),
  );
});

test('a resource path that climbs out of the folder is refused', async () => {
  const dir = await writeFolder({ 'app.yaml': DESCRIPTION('      licenseFile: ../../etc/passwd\n') });
  await assert.rejects(buildAppPackage(dir), (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_FOLDER' && /\.\./.test(e.message));
});

test('a resource that is a symlink to a file outside the folder is refused', async () => {
  const outside = await writeFolder({ 'secret.txt': 'do not publish' });
  const dir = await writeFolder({
    'app.yaml': DESCRIPTION('      licenseFile: LICENSE.txt\n'),
    'LICENSE.txt': { symlink: join(outside, 'secret.txt') },
  });
  await assert.rejects(buildAppPackage(dir), (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_FOLDER' && /outside/.test(e.message));
});

test('a resource the description lists but the folder lacks is refused', async () => {
  const dir = await writeFolder({ 'app.yaml': DESCRIPTION('      icon: missing.png\n') });
  await assert.rejects(buildAppPackage(dir), (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_FOLDER' && /missing\.png/.test(e.message));
});

test('a description without metadata.name is refused with the schema error', async () => {
  const dir = await writeFolder({ 'app.yaml': 'metadata:\n  version: 1.0.0\n' });
  await assert.rejects(
    buildAppPackage(dir),
    (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_DESCRIPTION' && /\/metadata\/name: is required/.test(e.message),
  );
});

test('two top-level YAML files need the description named explicitly', async () => {
  const dir = await writeFolder({ 'a.yaml': DESCRIPTION('      icon: i.png\n'), 'b.yml': 'x: 1\n', 'i.png': 'x' });
  await assert.rejects(
    buildAppPackage(dir),
    (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_DESCRIPTION' && /a\.yaml, b\.yml/.test(e.message),
  );
  assert.equal((await buildAppPackage(dir, { description: 'a.yaml' })).tag, '2.1.0');
});

test('the <file_format> of a resource media type is its lower-case extension (jpg written jpeg)', () => {
  assert.deepEqual(['icon.PNG', 'logo.svg', 'notes.md', 'LICENSE.txt', 'photo.jpg'].map(fileFormat), ['png', 'svg', 'md', 'txt', 'jpeg']);
  assert.throws(
    () => fileFormat('LICENSE'),
    (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_DESCRIPTION',
  );
});
