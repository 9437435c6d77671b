// `wfmck publish` as a user runs it: a child process against the reference registry over HTTPS.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildAppPackage } from '../../simulators/publish/app-package.ts';
import { buildComposeArchive } from '../../simulators/publish/compose.ts';
import { HELLO_APP, HELLO_COMPOSE, tempDir, useHttpsReferenceRegistry, wfmck, writeFolder } from './helpers.ts';

const target = useHttpsReferenceRegistry();
let caFile: string;
let host: string;

before(async () => {
  const registry = await target.ready();
  caFile = join(await tempDir(), 'ca.pem');
  await writeFile(caFile, registry.caPem);
  host = new URL(registry.url).host;
});

const publish = (...args: string[]) => wfmck(['publish', ...args, '--registry', target.registry.url, '--ca', caFile]);

test('publish app prints one JSON line with the reference and digest; a second run skips every blob', async () => {
  const first = await publish('app', HELLO_APP, '--repository', 'cli/hello-app');
  assert.equal(first.code, 0, first.stderr);
  const line = JSON.parse(first.stdout);
  assert.equal(line.reference, `${host}/cli/hello-app:1.0.0`);
  assert.equal(line.manifestDigest, (await buildAppPackage(HELLO_APP)).manifestDigest);
  assert.deepEqual([line.blobs.length, line.skipped], [6, 0]);
  const second = JSON.parse((await publish('app', HELLO_APP, '--repository', 'cli/hello-app')).stdout);
  assert.equal(second.skipped, 6);
});

test('publish compose --chunk-size --out pushes in chunks, writes the archive and says what it left out', async () => {
  const out = join(await tempDir(), 'hello-compose.tgz');
  const run = await publish('compose', HELLO_COMPOSE, '--repository', 'cli/hello-compose', '--version', '1.0.0', '--chunk-size', '128', '--out', out);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /left out secrets\/db_password\.txt: §2\.7 rule 6/);
  assert.deepEqual(await readFile(out), Buffer.from((await buildComposeArchive(HELLO_COMPOSE)).bytes));
  const line = JSON.parse(run.stdout);
  assert.equal(line.reference, `${host}/cli/hello-compose:1.0.0`);
  const pulled = await target.client.getManifest('cli/hello-compose', '1.0.0');
  assert.equal(pulled.digest, line.manifestDigest);
});

test('--dry-run builds and prints the manifest and pushes nothing', async () => {
  const before = target.registry.store.tags('cli/dry') ?? [];
  const run = await publish('app', HELLO_APP, '--repository', 'cli/dry', '--dry-run');
  assert.equal(run.code, 0, run.stderr);
  const line = JSON.parse(run.stdout);
  assert.equal(line.dryRun, true);
  assert.equal(line.manifest.artifactType, 'application/vnd.platform.app.v1+json');
  assert.deepEqual(target.registry.store.tags('cli/dry') ?? [], before);
  const bare = await wfmck(['publish', 'compose', HELLO_COMPOSE, '--version', '1.0.0', '--dry-run']);
  assert.equal(bare.code, 0, bare.stderr);
  assert.equal(JSON.parse(bare.stdout).reference, undefined);
});

test('a registry that is not on a loopback host is refused before anything is sent', async () => {
  const run = await wfmck(['publish', 'app', HELLO_APP, '--registry', 'https://registry.example.com', '--repository', 'x/y']);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /loopback/);
});

test('a folder with docker-compose.yml is refused with exit 1 and the rule', async () => {
  const dir = await writeFolder({ 'docker-compose.yml': 'services:\n  a:\n    image: busybox\n' });
  const run = await publish('compose', dir, '--repository', 'cli/bad', '--version', '1.0.0');
  assert.equal(run.code, 1);
  assert.match(run.stderr, /WFMCK_E_PUBLISH_COMPOSE: docker-compose\.yml: §2\.7 rule 2/);
});

test('usage errors exit 2: compose without --version, a bad --chunk-size, a v-prefixed version exits 1', async () => {
  assert.equal((await publish('compose', HELLO_COMPOSE, '--repository', 'cli/x')).code, 2);
  assert.equal((await publish('app', HELLO_APP, '--repository', 'cli/x', '--chunk-size', '0')).code, 2);
  const v = await publish('compose', HELLO_COMPOSE, '--repository', 'cli/x', '--version', 'v1.0.0');
  assert.equal(v.code, 1);
  assert.match(v.stderr, /leading v/);
});
