// `wfmck lint oci://...` against the reference registry: manifests, blobs by digest, then description or archive.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { lint } from '../../cli/lint.ts';
import { buildTarGz, benignEntries, HOSTILE_ARCHIVES } from '../../fixtures/archives/build.ts';
import { startRegistry, type RunningRegistry } from '../../reference/registry/server.ts';
import type { LintReport } from '../../spec/lint/report.ts';
import { LintInputError } from '../../spec/lint/input.ts';
import { DESCRIPTION, RESOURCES } from './fixtures.ts';
import { appManifest, composeManifest, pushArtifact, type Part } from './registry-helpers.ts';

let registry: RunningRegistry;
before(async () => {
  registry = await startRegistry();
});
after(() => registry.close());

const host = () => new URL(registry.url).host;
async function lintRef(ref: string, ...flags: string[]): Promise<{ code: number; report: LintReport }> {
  let out = '';
  const code = await lint([`oci://${host()}/${ref}`, '--json', ...flags], (text) => void (out += text));
  return { code, report: JSON.parse(out) as LintReport };
}
const ids = (r: LintReport) => r.findings.map((f) => f.requirement);
const resourceParts = (): Part[] => [
  {
    mediaType: 'application/vnd.platform.app.icon.v1+png',
    bytes: RESOURCES['resources/icon.png']!,
    title: 'resources/icon.png',
    resource: 'icon',
  },
  {
    mediaType: 'application/vnd.platform.app.releaseNotes.v1+md',
    bytes: RESOURCES['resources/release-notes.md']!,
    title: 'resources/release-notes.md',
    resource: 'releaseNotes',
  },
  {
    mediaType: 'application/vnd.platform.app.licenseFile.v1+txt',
    bytes: RESOURCES['resources/license.txt']!,
    title: 'resources/license.txt',
    resource: 'licenseFile',
  },
];
const descriptionPart = (text = DESCRIPTION): Part => ({
  mediaType: 'application/vnd.platform.app.description.v1+yaml',
  bytes: text,
  title: 'app.yaml',
});
const ANNOTATIONS = {
  'org.platform.component.type': 'compose',
  'org.platform.component.version': '1.0.0',
  'org.opencontainers.image.title': 'web-app',
  'org.opencontainers.image.authors': 'Example (ops@example.com)',
  'org.opencontainers.image.description': 'A web app',
  'org.opencontainers.image.version': '1.0.0',
};

test('§2.7: a complete pushed package passes: every blob fetched and verified by digest', async () => {
  await pushArtifact(registry.url, 'hello', '1.2.0', appManifest([descriptionPart(), ...resourceParts()]));
  const { code, report } = await lintRef('hello:1.2.0');
  assert.equal(report.kind, 'package');
  assert.deepEqual(report.findings, []);
  assert.match(report.notes[0]!, /5 blob\(s\) with the config fetched and verified by digest/);
  assert.equal(code, 0);
});

test('PKG-TAG-EQUALS-VERSION: a package tagged other than its metadata.version', async () => {
  await pushArtifact(registry.url, 'hello', '9.9.9', appManifest([descriptionPart(), ...resourceParts()]));
  const { code, report } = await lintRef('hello:9.9.9');
  assert.deepEqual(ids(report), ['PKG-TAG-EQUALS-VERSION']);
  assert.equal(code, 1);
});

test('PKG-RESOURCE-LAYER and PKG-RESOURCES-LISTED: a listed resource with no layer, a layer nobody lists', async () => {
  const unlisted: Part = {
    mediaType: 'application/vnd.platform.app.descriptionFile.v1+md',
    bytes: '# Hello\n',
    title: 'resources/description.md',
    resource: 'descriptionFile',
  };
  await pushArtifact(registry.url, 'hello', '1.2.0', appManifest([descriptionPart(), ...resourceParts().slice(1), unlisted]));
  const { code, report } = await lintRef('hello:1.2.0');
  assert.deepEqual(ids(report).sort(), ['PKG-RESOURCE-LAYER', 'PKG-RESOURCES-LISTED']);
  assert.equal(code, 1);
});

test('PKG-ARTIFACTTYPE and PKG-RESOURCE-ANNOTATION come from the manifest schema, per field; another vendor gets a hint', async () => {
  const parts = resourceParts().map((p, i) => (i === 0 ? { ...p, resource: undefined } : p));
  await pushArtifact(
    registry.url,
    'hello',
    '1.2.0',
    appManifest([descriptionPart(), ...parts], { artifactType: 'application/vnd.margo.app.v1+json' }),
  );
  const { report } = await lintRef('hello:1.2.0');
  assert.deepEqual(ids(report).sort(), ['PKG-ARTIFACTTYPE', 'PKG-RESOURCE-ANNOTATION']);
  assert.match(report.findings.find((f) => f.requirement === 'PKG-ARTIFACTTYPE')!.message, /--vendor margo/);
});

test('§2.7: a complete pushed compose component passes, its archive judged in memory', async () => {
  await pushArtifact(registry.url, 'web', '1.0.0', composeManifest(await buildTarGz(benignEntries()), ANNOTATIONS));
  const { code, report } = await lintRef('web:1.0.0');
  assert.equal(report.kind, 'compose-component');
  assert.deepEqual(report.findings, []);
  assert.equal(code, 0);
});

test('COMPOSE-NO-SYMLINK-OUT inside a pushed archive; COMPOSE-ANNOT-VERSION-MATCHES-TAG on the layer', async () => {
  const archive = await buildTarGz(HOSTILE_ARCHIVES['symlink-out']!.entries);
  await pushArtifact(registry.url, 'web', '2.0.0', composeManifest(archive, ANNOTATIONS));
  const { code, report } = await lintRef('web:2.0.0');
  assert.deepEqual(ids(report).sort(), ['COMPOSE-ANNOT-VERSION-MATCHES-TAG', 'COMPOSE-NO-SYMLINK-OUT']);
  assert.match(report.findings.find((f) => f.requirement === 'COMPOSE-NO-SYMLINK-OUT')!.file!, /^layer web-app$/);
  assert.equal(code, 1);
});

test('COMPOSE-ANNOT-TITLE and friends are SHOULDs: they pass in default and fail in strict', async () => {
  const fewer = Object.fromEntries(Object.entries(ANNOTATIONS).filter(([k]) => !/authors|description/.test(k)));
  await pushArtifact(
    registry.url,
    'web',
    '1.0.1',
    composeManifest(await buildTarGz(benignEntries()), {
      ...fewer,
      'org.platform.component.version': '1.0.1',
      'org.opencontainers.image.version': '1.0.1',
    }),
  );
  const plain = await lintRef('web:1.0.1');
  assert.deepEqual(ids(plain.report).sort(), ['COMPOSE-ANNOT-AUTHORS', 'COMPOSE-ANNOT-DESCRIPTION']);
  assert.equal(plain.code, 0);
  assert.equal((await lintRef('web:1.0.1', '--strictness', 'strict')).code, 1);
});

test('COMPOSE-ANNOT-TYPE and COMPOSE-NO-COMPOSE-PUBLISH: a compose-publish artifact is named as such', async () => {
  const artifact = composeManifest(await buildTarGz(benignEntries()), { ...ANNOTATIONS, 'org.platform.component.type': 'helm' });
  await pushArtifact(registry.url, 'web', '1.0.0', {
    ...artifact,
    manifest: { ...artifact.manifest, artifactType: 'application/vnd.docker.compose.project' },
  });
  const { report } = await lintRef('web:1.0.0');
  assert.deepEqual(ids(report).sort(), ['COMPOSE-ANNOT-TYPE', 'COMPOSE-ARTIFACTTYPE', 'COMPOSE-NO-COMPOSE-PUBLISH']);
});

test('a tag the registry does not have cannot be judged: a LintInputError (exit 2), never a pass', async () => {
  await assert.rejects(lintRef('hello:0.0.404'), LintInputError);
});
