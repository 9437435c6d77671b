// RegistryClient against the reference OCI registry over HTTPS: push and pull workflows, pagination, digests.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRootCa, issueCertificate } from '../../protocol/pki.ts';
import { startRegistry, type RunningRegistry } from '../../reference/registry/server.ts';
import { RegistryClient } from '../../simulators/registry-client.ts';
import { Transcript } from '../../simulators/transport/transcript.ts';
import { createTransport, type UndiciTransport } from '../../simulators/transport/undici-transport.ts';
import { OCI_EMPTY_DESCRIPTOR, OCI_MANIFEST } from '../../spec/media-types.ts';
import { digestOf } from '../../spec/rules/desired-state.ts';

let registry: RunningRegistry;
let transport: UndiciTransport;
let client: RegistryClient;
const transcript = new Transcript();

before(async () => {
  const ca = await createRootCa('registry test root');
  const leaf = await issueCertificate(ca, { commonName: 'registry', ipAddresses: ['127.0.0.1'], usage: ['server'] });
  registry = await startRegistry({ tls: { cert: leaf.certPem, key: leaf.keyPem } });
  transport = createTransport({ baseUrl: registry.url, ca: ca.certPem, transcript, timeoutMs: 3_000 });
  client = new RegistryClient({ transport });
});
beforeEach(() => registry.store.reset());
after(async () => {
  await transport.close();
  await registry.close();
});

const enc = new TextEncoder();
const description = enc.encode('metadata:\n  name: shop\n  version: 1.0.0\n');

async function pushImage(name: string, tag: string): Promise<{ bytes: Uint8Array; digest: string }> {
  await client.pushBlob(name, enc.encode('{}'));
  const layer = await client.pushBlob(name, description);
  const manifest = {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType: 'application/vnd.platform.app.v1+json',
    config: { mediaType: OCI_EMPTY_DESCRIPTOR.mediaType, digest: OCI_EMPTY_DESCRIPTOR.digest, size: 2 },
    layers: [{ mediaType: 'application/vnd.platform.app.description.v1+yaml', digest: layer.digest, size: description.length }],
  };
  const bytes = enc.encode(JSON.stringify(manifest));
  const res = await client.pushManifest(name, tag, bytes, OCI_MANIFEST);
  assert.equal(res.status, 201, res.text());
  return { bytes, digest: digestOf(bytes) };
}

test('pushBlob: monolithic POST then PUT (201); a second push is skipped because HEAD finds it', async () => {
  const first = await client.pushBlob('acme/shop', description);
  assert.deepEqual([first.ok, first.skipped, first.response.status], [true, false, 201]);
  assert.equal(first.digest, digestOf(description));
  const again = await client.pushBlob('acme/shop', description);
  assert.deepEqual([again.ok, again.skipped, again.response.status], [true, true, 200]);
  assert.equal((await client.headBlob('acme/shop', first.digest)).headers['content-length'], String(description.length));
});

test('pushBlob with chunkSize: PATCHes with Content-Range following each Location, then PUT ?digest', async () => {
  const bytes = enc.encode('x'.repeat(1000));
  const pushed = await client.pushBlob('acme/chunked', bytes, { chunkSize: 300 });
  assert.ok(pushed.ok, pushed.response.text());
  const patches = transcript.all().filter((x) => x.method === 'PATCH');
  assert.deepEqual(
    patches.map((x) => x.requestHeaders['content-range']),
    ['0-299', '300-599', '600-899', '900-999'],
  );
  const pulled = await client.getBlob('acme/chunked', pushed.digest);
  assert.deepEqual(Buffer.from(pulled.bytes), Buffer.from(bytes));
});

test('getBlob verifies the digest of the bytes it returns (§2.7 rule 8)', async () => {
  const { digest } = await client.pushBlob('acme/shop', description);
  const res = await client.getBlob('acme/shop', digest);
  assert.equal(res.response.status, 200);
  assert.equal(res.digest, digest);
  assert.equal(Buffer.from(res.bytes).toString(), Buffer.from(description).toString());
  const missing = await client.getBlob('acme/shop', digestOf(enc.encode('absent')));
  assert.equal(missing.response.status, 404);
});

test('getBlob maxBytes caps the download', async () => {
  const { digest } = await client.pushBlob('acme/shop', enc.encode('y'.repeat(5000)));
  await assert.rejects(client.getBlob('acme/shop', digest, { maxBytes: 1000 }), { code: 'WFMCK_E_RESPONSE_TOO_LARGE' });
});

test('getManifest by tag and by digest: bytes, media type and Docker-Content-Digest', async () => {
  const pushed = await pushImage('acme/shop', '1.0.0');
  const byTag = await client.getManifest('acme/shop', '1.0.0');
  assert.equal(byTag.response.status, 200);
  assert.equal(byTag.mediaType, OCI_MANIFEST);
  assert.equal(byTag.digest, pushed.digest);
  assert.deepEqual(Buffer.from(byTag.bytes), Buffer.from(pushed.bytes));
  const byDigest = await client.getManifest('acme/shop', pushed.digest);
  assert.equal(byDigest.response.status, 200);
  assert.equal(transcript.all().at(-1)!.requestHeaders['accept']?.split(', ')[0], OCI_MANIFEST);
});

test('listTags pages with n and last; allTags follows Link rel="next" to the end', async () => {
  for (const tag of ['1.0.0', '1.1.0', '2.0.0', '2.1.0', '3.0.0']) await pushImage('acme/shop', tag);
  const page = await client.listTags('acme/shop', { n: 2 });
  assert.deepEqual(page.tags, ['1.0.0', '1.1.0']);
  assert.ok(page.next?.startsWith(registry.url));
  const after = await client.listTags('acme/shop', { n: 2, last: '1.1.0' });
  assert.deepEqual(after.tags, ['2.0.0', '2.1.0']);
  const all = await client.allTags('acme/shop', { n: 2 });
  assert.equal(all.problem, undefined);
  assert.deepEqual(all.tags, ['1.0.0', '1.1.0', '2.0.0', '2.1.0', '3.0.0']);
  assert.equal(all.pages.length, 3);
  const unknown = await client.allTags('acme/none');
  assert.match(unknown.problem ?? '', /HTTP 404/);
});
