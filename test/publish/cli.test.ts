// `wfmck publish` as a user runs it: a child process against the reference registry over HTTPS.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { createRootCa } from '../../protocol/pki.ts';
import { startRegistry } from '../../reference/registry/server.ts';
import { join } from 'node:path';
import { buildAppPackage } from '../../simulators/publish/app-package.ts';
import { buildComposeArchive } from '../../simulators/publish/compose.ts';
import { unusedLoopbackPort } from '../support/ports.ts';
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
  assert.equal(line.reference, `oci://${host}/cli/hello-app:1.0.0`, 'the reference as wfmck lint reads it');
  assert.equal(line.manifestDigest, (await buildAppPackage(HELLO_APP)).manifestDigest);
  assert.deepEqual([line.blobs.length, line.skipped], [6, 0]);
  const second = JSON.parse((await publish('app', HELLO_APP, '--repository', 'cli/hello-app')).stdout);
  assert.equal(second.skipped, 6);
});

test('publish compose --chunk-size --out pushes in chunks, writes the archive and says what it left out', async () => {
  const out = join(await tempDir(), 'hello-compose.tgz');
  const run = await publish(
    'compose',
    HELLO_COMPOSE,
    '--repository',
    'cli/hello-compose',
    '--version',
    '1.0.0',
    '--chunk-size',
    '128',
    '--out',
    out,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /left out secrets\/db_password\.txt: §2\.7 rule 6/);
  assert.deepEqual(await readFile(out), Buffer.from((await buildComposeArchive(HELLO_COMPOSE)).bytes));
  const line = JSON.parse(run.stdout);
  assert.equal(line.reference, `oci://${host}/cli/hello-compose:1.0.0`);
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

test('a registry named by a DNS name is allowed and reached through its --resolve pin, never through DNS', async () => {
  // A pin to a closed loopback port: the connection is refused on 127.0.0.1, so the name was never looked up.
  const closed = await unusedLoopbackPort();
  const registry = `registry.example.test:${closed}`;
  const run = await wfmck([
    'publish',
    'app',
    HELLO_APP,
    '--registry',
    `https://${registry}`,
    '--repository',
    'x/y',
    '--resolve',
    `${registry}:127.0.0.1`,
  ]);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /ECONNREFUSED/);
  assert.doesNotMatch(run.stderr, /ENOTFOUND|getaddrinfo/);
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

test('what publish pushes with its defaults, its own lint passes without a warning: compose authors and description from the app that lists it, else from its name', async () => {
  const run = await publish('compose', HELLO_COMPOSE, '--repository', 'cli/lint-me', '--version', '1.0.0');
  assert.equal(run.code, 0, run.stderr);
  // hello-app (beside hello-compose) lists the component: its catalog authors and its description.
  assert.match(run.stderr, /--authors not given: "Example Org \(apps@example\.org\)" \(from .*hello-app\/application\.yaml\)/);
  assert.match(run.stderr, /--description not given: "A web page that says hello, deployed as one compose component\."/);
  const lonely = join(await tempDir(), 'lonely');
  await cp(HELLO_COMPOSE, lonely, { recursive: true });
  const alone = await publish('compose', lonely, '--repository', 'cli/lonely', '--version', '2.0.0');
  assert.equal(alone.code, 0, alone.stderr);
  assert.match(alone.stderr, /--authors not given: "hello-compose maintainers"\n/);
  assert.match(alone.stderr, /--description not given: "The hello-compose compose component, version 2\.0\.0\."\n/);
  const given = await publish(
    'compose',
    lonely,
    '--repository',
    'cli/given',
    '--version',
    '1.0.0',
    '--authors',
    'Acme (ops@acme.test)',
    '--description',
    'Acme web',
  );
  assert.doesNotMatch(given.stderr, /not given/);
  for (const r of [run, alone, given, await publish('app', HELLO_APP, '--repository', 'cli/lint-app')]) {
    const { reference } = JSON.parse(r.stdout) as { reference: string };
    const lint = await wfmck(['lint', reference, '--ca-file', caFile, '--json']);
    assert.equal(lint.code, 0, lint.stderr);
    assert.deepEqual((JSON.parse(lint.stdout) as { findings: unknown[] }).findings, [], `${reference}: no finding, not even a SHOULD`);
  }
  const pulled = await target.client.getManifest('cli/given', '1.0.0');
  const layer = (JSON.parse(new TextDecoder().decode(pulled.bytes)) as { layers: { annotations: Record<string, string> }[] }).layers[0]!;
  assert.deepEqual(
    [layer.annotations['org.opencontainers.image.authors'], layer.annotations['org.opencontainers.image.description']],
    ['Acme (ops@acme.test)', 'Acme web'],
  );
});

test('a registry certificate no CA covers: publish names --ca-file; a registry without TLS behind https:// names http://', async () => {
  const untrusted = await wfmck(['publish', 'app', HELLO_APP, '--registry', target.registry.url, '--repository', 'cli/no-ca']);
  assert.equal(untrusted.code, 2);
  assert.match(
    untrusted.stderr,
    /^wfmck publish: WFMCK_E_TLS: the registry's certificate is not trusted \(\w+\): give its CA with --ca-file FILE\n$/,
  );
  const other = join(await tempDir(), 'other-ca.pem');
  await writeFile(other, (await createRootCa('not the registry CA')).certPem);
  const wrong = await wfmck([
    'publish',
    'app',
    HELLO_APP,
    '--registry',
    target.registry.url,
    '--repository',
    'cli/no-ca',
    '--ca-file',
    other,
  ]);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /the registry's certificate is not trusted by --ca-file .*other-ca\.pem \(\w+\): give the CA that issued it/);
  const plain = await startRegistry();
  try {
    const r = await wfmck(['publish', 'app', HELLO_APP, '--registry', plain.url.replace('http:', 'https:'), '--repository', 'cli/plain']);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      new RegExp(
        `did not complete a TLS handshake \\(\\w+\\): if it serves plain http, give --registry ${plain.url.replace(/[.]/g, '\\.')}`,
      ),
    );
  } finally {
    await plain.close();
  }
});
