// §2.7 compose component manifest: one layer, media types, annotations, version rules; and a property over random folders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mediaTypes, OCI_EMPTY_DESCRIPTOR } from '../../spec/media-types.ts';
import { INVALID_COMPOSE_NAMES } from '../../spec/rules/compose-archive.ts';
import { composeComponentFindings } from '../../spec/rules/compose-file.ts';
import { readTarGz } from '../../spec/rules/tar-read.ts';
import { validate } from '../../spec/schemas/index.ts';
import { PublishError } from '../../simulators/publish/artifact.ts';
import { buildComposeArchive, buildComposeArtifact, componentVersion } from '../../simulators/publish/compose.ts';
import { HELLO_COMPOSE, noisyCopy, writeFolder } from './helpers.ts';

const seed = process.env.WFMCK_SEED === undefined ? undefined : Number(process.env.WFMCK_SEED);

test('§2.7 compose component manifest: artifactType, one layer with the archive media type and the required annotations', async () => {
  const archive = await buildComposeArchive(HELLO_COMPOSE);
  const built = buildComposeArtifact(archive.bytes, {
    version: '1.2.3-rc.1',
    title: 'Hello',
    authors: 'Example Org (apps@example.org)',
    description: 'says hello',
  });
  const manifest = JSON.parse(new TextDecoder().decode(built.manifest));
  const mt = mediaTypes('platform');
  assert.deepEqual(validate('ComposeComponentManifest', manifest), { ok: true });
  assert.equal(manifest.artifactType, mt.composeArtifact);
  assert.equal(manifest.config.digest, OCI_EMPTY_DESCRIPTOR.digest);
  assert.equal(manifest.layers.length, 1);
  assert.equal(manifest.layers[0].mediaType, mt.composeLayer);
  assert.equal(manifest.layers[0].size, archive.bytes.byteLength);
  assert.deepEqual(manifest.layers[0].annotations, {
    'org.platform.component.type': 'compose',
    'org.platform.component.version': '1.2.3-rc.1',
    'org.opencontainers.image.version': '1.2.3-rc.1',
    'org.opencontainers.image.title': 'Hello',
    'org.opencontainers.image.authors': 'Example Org (apps@example.org)',
    'org.opencontainers.image.description': 'says hello',
  });
  assert.equal(built.tag, '1.2.3-rc.1');
  assert.deepEqual(
    built.blobs.map((b) => b.digest),
    [OCI_EMPTY_DESCRIPTOR.digest, manifest.layers[0].digest],
  );
});

test('P1 the vendor token reaches artifactType, layer media type and annotation keys', async () => {
  const archive = await buildComposeArchive(HELLO_COMPOSE);
  const manifest = JSON.parse(
    new TextDecoder().decode(buildComposeArtifact(archive.bytes, { version: '1.0.0', vendor: 'margo' }).manifest),
  );
  assert.equal(manifest.artifactType, 'application/vnd.org.margo.component.compose+json');
  assert.equal(manifest.layers[0].mediaType, 'application/vnd.org.margo.component.compose.tar+gzip');
  assert.equal(manifest.layers[0].annotations['org.margo.component.type'], 'compose');
  assert.deepEqual(validate('ComposeComponentManifest', manifest, { vendor: 'margo' }), { ok: true });
});

test('§2.7/§9 the version is SemVer 2.0 without a leading v, and usable as an OCI tag', () => {
  for (const ok of ['0.0.1', '1.2.3', '1.2.3-rc.1', '10.20.30-alpha-1']) assert.equal(componentVersion(ok), ok);
  for (const [bad, why] of [
    ['v1.2.3', /leading v/],
    ['1.2', /not SemVer/],
    ['01.2.3', /not SemVer/],
    ['1.2.3+build.7', /OCI tag/],
  ] as const) {
    assert.throws(
      () => componentVersion(bad),
      (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_VERSION' && why.test(e.message),
      bad,
    );
  }
});

const segment = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,8}$/);
const folderFiles = fc
  .uniqueArray(fc.tuple(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.string({ maxLength: 40 })), {
    maxLength: 8,
    selector: ([p]) => p.join('/'),
  })
  .map((files) => files.map(([p, content]) => [p.join('/'), content] as const))
  .filter((files) => files.every(([a]) => !files.some(([b]) => b.startsWith(`${a}/`))))
  .filter((files) => files.every(([p]) => p !== 'compose.yaml' && !(INVALID_COMPOSE_NAMES as readonly string[]).includes(p)));

test('property: any plain folder gives an archive with no findings, every file in it, and the same bytes from a noisy copy', async () => {
  await fc.assert(
    fc.asyncProperty(folderFiles, async (files) => {
      const dir = await writeFolder({ 'compose.yaml': 'services:\n  app:\n    image: busybox:1.36\n', ...Object.fromEntries(files) });
      const archive = await buildComposeArchive(dir, { name: 'c' });
      const entries = await readTarGz(archive.bytes);
      assert.deepEqual(composeComponentFindings(entries), []);
      for (const [path] of files)
        assert.ok(
          entries.some((e) => e.name === `c/${path}` && e.type === 'file'),
          path,
        );
      const copy = await buildComposeArchive(await noisyCopy(dir, files.length), { name: 'c' });
      assert.deepEqual(Buffer.from(copy.bytes), Buffer.from(archive.bytes));
    }),
    { numRuns: 25, ...(seed !== undefined ? { seed } : {}) },
  );
});
