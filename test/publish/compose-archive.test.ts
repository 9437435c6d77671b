// §2.7 compose archive built from a folder: structure, no findings, exclusions, normalised and deterministic bytes, refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { composeComponentFindings } from '../../spec/rules/compose-file.ts';
import { readTarGz } from '../../spec/rules/tar-read.ts';
import { PublishError } from '../../simulators/publish/artifact.ts';
import { buildComposeArchive } from '../../simulators/publish/compose.ts';
import { HELLO_COMPOSE, noisyCopy, writeFolder } from './helpers.ts';

const COMPOSE = `services:\n  web:\n    image: nginx:1.27\n    env_file: ./web.env\n`;

test('§2.7 rules 1, 2, 4, 6: one top-level directory, compose.yaml, env_file and config files in, the secret file out', async () => {
  const archive = await buildComposeArchive(HELLO_COMPOSE);
  const entries = await readTarGz(archive.bytes);
  assert.equal(archive.name, 'hello-compose');
  assert.deepEqual(
    entries.map((e) => e.name),
    [
      'hello-compose/',
      'hello-compose/compose.yaml',
      'hello-compose/config/',
      'hello-compose/config/site.conf',
      'hello-compose/env/',
      'hello-compose/env/web.env',
    ],
  );
  assert.deepEqual(composeComponentFindings(entries), []);
  assert.deepEqual(
    archive.excluded.map((x) => x.path),
    ['secrets', 'secrets/db_password.txt'],
  );
  assert.match(archive.excluded[1]!.reason, /rule 6/);
});

test('§2.7 rule 7: permissions normalised (0644 files, 0755 folders), no setuid/setgid/sticky, owner 0', async () => {
  const archive = await buildComposeArchive(await noisyCopy(HELLO_COMPOSE));
  for (const e of await readTarGz(archive.bytes)) assert.equal(e.mode, e.type === 'directory' ? 0o755 : 0o644, e.name);
});

test('the same folder gives the same bytes, twice and from a copy with other mtimes, permissions and folder name', async () => {
  const first = await buildComposeArchive(HELLO_COMPOSE);
  const again = await buildComposeArchive(HELLO_COMPOSE);
  const copy = await buildComposeArchive(await noisyCopy(HELLO_COMPOSE, 42));
  assert.deepEqual(Buffer.from(again.bytes), Buffer.from(first.bytes));
  assert.deepEqual(Buffer.from(copy.bytes), Buffer.from(first.bytes));
});

test('the gzip header is fixed: mtime 0, no file name, OS "unknown"', async () => {
  const { bytes } = await buildComposeArchive(HELLO_COMPOSE);
  assert.deepEqual([...bytes.subarray(0, 4)], [0x1f, 0x8b, 8, 0], 'deflate, no FNAME flag');
  assert.deepEqual([...bytes.subarray(4, 8)], [0, 0, 0, 0], 'MTIME 0');
  assert.equal(bytes[9], 0xff);
});

test('the component name: --name, else compose.yaml name, else the folder name; it must be one path segment', async () => {
  const dir = await writeFolder({ 'compose.yaml': COMPOSE, 'web.env': 'A=1\n' });
  assert.equal((await buildComposeArchive(dir, { name: 'web-app' })).name, 'web-app');
  assert.equal((await buildComposeArchive(HELLO_COMPOSE)).name, 'hello-compose');
  assert.match((await buildComposeArchive(dir)).name, /^wfmck-publish-/);
  await assert.rejects(buildComposeArchive(dir, { name: '../up' }), (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_COMPOSE');
});

test('§2.7 rule 5: a bind-mount source folder is left out, with its reason', async () => {
  const compose = `services:\n  web:\n    image: nginx:1.27\n    volumes:\n      - ./data:/var/lib/data\n      - type: bind\n        source: ./cache\n        target: /cache\n`;
  const dir = await writeFolder({ 'compose.yaml': compose, 'data/seed.db': 'x', 'cache/c': 'y', 'keep.txt': 'z' });
  const archive = await buildComposeArchive(dir, { name: 'svc' });
  const names = (await readTarGz(archive.bytes)).map((e) => e.name);
  assert.deepEqual(names, ['svc/', 'svc/compose.yaml', 'svc/keep.txt']);
  assert.deepEqual(
    archive.excluded.map((x) => x.path),
    ['cache', 'cache/c', 'data', 'data/seed.db'],
  );
  assert.match(archive.excluded[0]!.reason, /rule 5/);
});

test('§2.7 rule 2: a docker-compose.yml is refused with the reason', async () => {
  const dir = await writeFolder({ 'docker-compose.yml': COMPOSE, 'web.env': 'A=1\n' });
  await assert.rejects(
    buildComposeArchive(dir),
    (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_COMPOSE' && /docker-compose\.yml.*compose\.yaml/.test(e.message),
  );
});

test('§2.7 rule 2: compose.yml beside compose.yaml is refused too, so no tool can pick the other file', async () => {
  const dir = await writeFolder({ 'compose.yaml': COMPOSE, 'compose.yml': COMPOSE, 'web.env': 'A=1\n' });
  await assert.rejects(
    buildComposeArchive(dir),
    (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_COMPOSE' && /compose\.yml/.test(e.message),
  );
});

test('§2.7 rule 2: a compose.yaml that is not YAML makes the build fail with the parse finding', async () => {
  const dir = await writeFolder({ 'compose.yaml': 'services: [unclosed\n' });
  await assert.rejects(buildComposeArchive(dir), (e: PublishError) => e.findings.some((f) => f.rule === 'compose-yaml-parse'));
});

test('§2.7 rule 2: a folder without compose.yaml is refused', async () => {
  const dir = await writeFolder({ 'web.env': 'A=1\n' });
  await assert.rejects(
    buildComposeArchive(dir),
    (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_COMPOSE' && /no compose\.yaml/.test(e.message),
  );
});

test('§2.7 rule 7: a symlink pointing outside the folder is refused before anything is packed', async () => {
  const dir = await writeFolder({ 'compose.yaml': COMPOSE, 'web.env': 'A=1\n', passwd: { symlink: '/etc/passwd' } });
  await assert.rejects(buildComposeArchive(dir), (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_FOLDER' && /passwd/.test(e.message));
  const relative = await writeFolder({ 'compose.yaml': COMPOSE, 'web.env': 'A=1\n', 'sub/up': { symlink: '../../..' } });
  await assert.rejects(
    buildComposeArchive(relative),
    (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_FOLDER' && /outside/.test(e.message),
  );
});

test('§2.7 rule 7: a symlink inside the folder is packed as a relative link', async () => {
  const dir = await writeFolder({ 'compose.yaml': COMPOSE, 'web.env': 'A=1\n', 'conf/alias.env': { symlink: '../web.env' } });
  const entries = await readTarGz((await buildComposeArchive(dir, { name: 'svc' })).bytes);
  const link = entries.find((e) => e.name === 'svc/conf/alias.env');
  assert.deepEqual([link?.type, link?.linkname], ['symlink', '../web.env']);
  assert.deepEqual(composeComponentFindings(entries), []);
});

test('§2.7 rule 4: an env_file the folder lacks makes the build fail with the finding', async () => {
  const dir = await writeFolder({ 'compose.yaml': COMPOSE });
  await assert.rejects(
    buildComposeArchive(dir),
    (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_COMPOSE' && e.findings.some((f) => f.rule === 'env-file-present'),
  );
});

test('§2.7 rule 2: a compose.yaml that breaks the Compose Specification makes the build fail', async () => {
  const dir = await writeFolder({ 'compose.yaml': `${COMPOSE}bogus_top_level_key: true\n`, 'web.env': 'A=1\n' });
  await assert.rejects(buildComposeArchive(dir), (e: PublishError) => e.findings.some((f) => f.rule === 'compose-spec-conformance'));
});

test('the version, when given, is checked before any file is read', async () => {
  await assert.rejects(
    buildComposeArchive('/nonexistent', { version: 'v1.0.0' }),
    (e: PublishError) => e.code === 'WFMCK_E_PUBLISH_VERSION',
  );
});

test('the sample compose.yaml is packed byte for byte', async () => {
  const entries = await readTarGz((await buildComposeArchive(HELLO_COMPOSE)).bytes);
  const packed = entries.find((e) => e.name === 'hello-compose/compose.yaml')!.content!;
  assert.deepEqual(Buffer.from(packed), await readFile(join(HELLO_COMPOSE, 'compose.yaml')));
});
