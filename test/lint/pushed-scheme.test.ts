// `wfmck lint oci://HOST:PORT/NAME:TAG` names no scheme: it follows the registry. https when the registry completes a
// TLS handshake (a certificate no CA covers names --ca-file), else plain http, said on stderr.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildAppPackage } from '../../simulators/publish/app-package.ts';
import { pushArtifact } from '../../simulators/publish/push.ts';
import { startRegistry, type RunningRegistry } from '../../reference/registry/server.ts';
import { connect, HELLO_APP, tempDir, useHttpsReferenceRegistry, wfmck } from '../publish/helpers.ts';

const tls = useHttpsReferenceRegistry();
let plain: RunningRegistry;
let caFile: string;
const ref = (url: string) => `oci://${new URL(url).host}/scheme/hello:1.0.0`;

before(async () => {
  const registry = await tls.ready();
  caFile = join(await tempDir(), 'ca.pem');
  await writeFile(caFile, registry.caPem);
  const app = await buildAppPackage(HELLO_APP);
  await pushArtifact(tls.client, 'scheme/hello', app);
  plain = await startRegistry();
  const plainClient = connect(plain.url);
  await pushArtifact(plainClient.client, 'scheme/hello', app);
  await plainClient.transport.close();
});
after(() => plain?.close());

test('an https registry without --ca-file: exit 2 naming --ca-file, never a fall back to plain http', async () => {
  const r = await wfmck(['lint', ref(tls.registry.url)]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    `wfmck lint: WFMCK_E_TLS: ${ref(tls.registry.url)}: the registry's certificate is not trusted (${/\((\w+)\)/.exec(r.stderr)?.[1]}): give its CA with --ca-file FILE\n`,
  );
});

test('an https registry with --ca-file: read over https, every blob verified, no finding', async () => {
  const r = await wfmck(['lint', ref(tls.registry.url), '--ca-file', caFile, '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '', 'nothing to say: the scheme was https');
  const report = JSON.parse(r.stdout) as { kind: string; findings: unknown[] };
  assert.deepEqual([report.kind, report.findings], ['package', []]);
});

test('a plain http registry: read over http, and stderr says so', async () => {
  const r = await wfmck(['lint', ref(plain.url), '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(
      `^wfmck lint: ${new URL(plain.url).host.replace(/\./g, '\\.')} did not complete a TLS handshake \\(\\w+\\); reading it over plain http\\n$`,
    ),
  );
  assert.deepEqual((JSON.parse(r.stdout) as { findings: unknown[] }).findings, []);
});

test('nothing listening: a connection error, no fall back', async () => {
  const r = await wfmck(['lint', 'oci://127.0.0.1:1/scheme/hello:1.0.0']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^wfmck lint: WFMCK_E_CONNECTION: oci:\/\/127\.0\.0\.1:1\/scheme\/hello:1\.0\.0: ECONNREFUSED: .*\n$/);
});
