// lintPushed with a stub registry (the Puller seam): blobs that are missing, differ from their digest or size, a
// manifest that is not JSON; and the oci:// references lint accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toLintFinding } from '../../spec/lint/findings.ts';
import { parseOciRef, type OciRef } from '../../spec/lint/oci-ref.ts';
import { lintPushed, type Puller } from '../../spec/lint/pushed.ts';
import { DESCRIPTION } from './fixtures.ts';
import { appManifest } from './registry-helpers.ts';

const REF: OciRef = { registry: '127.0.0.1:5000', hostname: '127.0.0.1', name: 'hello', reference: '1.2.0', isDigest: false };
const artifact = appManifest([
  {
    mediaType: 'application/vnd.platform.app.description.v1+yaml',
    bytes: DESCRIPTION.replace(/  catalog:[\s\S]*?deploymentProfiles/, 'deploymentProfiles'),
    title: 'app.yaml',
  },
]);
const manifestBytes = new TextEncoder().encode(JSON.stringify(artifact.manifest));
const [config, description] = artifact.blobs as [Uint8Array, Uint8Array];
const CONFIG_DIGEST = (artifact.manifest.config as { digest: string }).digest;

/** Serves the config as pushed and answers for the description layer with `blob`. */
function stub(blob: Puller['blob'], manifest = manifestBytes): Puller {
  return { manifest: async () => manifest, blob: async (digest) => (digest === CONFIG_DIGEST ? { bytes: config } : blob(digest)) };
}
const ids = async (p: Puller) => (await lintPushed(REF, p, 'platform')).findings.map((f) => toLintFinding(f).requirement);

test('the stub serves a valid package: no finding (the baseline the defects below change)', async () => {
  assert.deepEqual(await ids(stub(async () => ({ bytes: description }))), []);
});

test('REG-BLOB-BY-DIGEST: a blob served with other bytes, or not at all, is a finding and is never judged', async () => {
  assert.deepEqual(await ids(stub(async () => ({ problem: 'digest', message: 'content digest mismatch' }))), ['REG-BLOB-BY-DIGEST']);
  assert.deepEqual(await ids(stub(async () => ({ problem: 'missing', message: 'HTTP 404' }))), ['REG-BLOB-BY-DIGEST']);
});

test('PKG-LAYER-DESCRIPTOR: a blob whose size is not its descriptor size', async () => {
  assert.deepEqual(await ids(stub(async () => ({ bytes: new Uint8Array([...description, 10]) }))), ['PKG-LAYER-DESCRIPTOR']);
});

test('PKG-MANIFEST-MEDIATYPE: a manifest that is not JSON', async () => {
  assert.deepEqual(await ids(stub(async () => ({ bytes: description }), new TextEncoder().encode('<html>'))), ['PKG-MANIFEST-MEDIATYPE']);
});

test('PKG-TAG-EQUALS-VERSION is not judged for a reference by digest: there is no tag', async () => {
  const byDigest = { ...REF, reference: `sha256:${'a'.repeat(64)}`, isDigest: true };
  const result = await lintPushed(
    byDigest,
    stub(async () => ({ bytes: description })),
    'platform',
  );
  assert.deepEqual(result.findings, []);
});

test('oci:// references: tags, digests, nested names, on any registry host (a target the user names)', () => {
  const ok = (text: string) => {
    const r = parseOciRef(text);
    assert.ok(r.ok, text);
    return r.ref;
  };
  assert.deepEqual(ok('oci://127.0.0.1:5000/team/hello:1.2.0'), {
    registry: '127.0.0.1:5000',
    hostname: '127.0.0.1',
    name: 'team/hello',
    reference: '1.2.0',
    isDigest: false,
  });
  assert.equal(ok(`oci://localhost:5000/hello@sha256:${'0'.repeat(64)}`).isDigest, true);
  assert.equal(ok('oci://[::1]:5000/hello:v1').hostname, '::1');
  assert.equal(ok('oci://registry.example.test/hello:1.0.0').hostname, 'registry.example.test');
  assert.equal(ok('oci://10.0.0.1:5000/hello:1.0.0').registry, '10.0.0.1:5000');
  for (const [text, why] of [
    ['oci://127.0.0.1:5000/hello', /names no tag/],
    ['oci://127.0.0.1:5000/Hello:1.0.0', /repository name/],
    ['oci://127.0.0.1:5000/hello:-bad', /not an OCI tag/],
  ] as const) {
    const r = parseOciRef(text);
    assert.ok(!r.ok && why.test(r.reason), `${text}: ${JSON.stringify(r)}`);
  }
});
