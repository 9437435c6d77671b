// The referrers API (distribution-spec v1.1 "Pushing Manifests with Subject", "Listing Referrers").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OCI_INDEX, OCI_MANIFEST } from '../../spec/media-types.ts';
import { digestOf, errorCodes, imageManifest, pushImage, putManifest, useRegistry } from './registry-helpers.ts';

const registry = useRegistry();
const base = () => registry.current.url;
const SIGNATURE = 'application/vnd.example.signature.v1';
const SBOM = 'application/vnd.example.sbom.v1';

interface Index {
  schemaVersion: number;
  mediaType: string;
  manifests: { mediaType: string; digest: string; size: number; artifactType?: string; annotations?: Record<string, string> }[];
}

async function referrers(name: string, digest: string, query = ''): Promise<{ res: Response; index: Index }> {
  const res = await fetch(`${base()}/v2/${name}/referrers/${digest}${query}`);
  return { res, index: (await res.json()) as Index };
}

async function subjectAndReferrers(): Promise<{ subject: string; signature: string; sbom: string }> {
  const subject = await pushImage(base(), 'acme/app', '1.0.0');
  const subjectDescriptor = { mediaType: OCI_MANIFEST, digest: subject.digest, size: Buffer.byteLength(subject.bytes) };
  const signature = await pushImage(base(), 'acme/app', 'sig', [{ mediaType: SIGNATURE, bytes: 'signature' }], {
    artifactType: SIGNATURE,
    subject: subjectDescriptor,
    annotations: { 'org.example.signer': 'acme' },
  });
  // No artifactType: the referrers descriptor takes the config mediaType.
  const sbom = await pushImage(base(), 'acme/app', 'sbom', [{ mediaType: SBOM, bytes: 'sbom' }], {
    config: { mediaType: SBOM, digest: digestOf('{}'), size: 2 },
    subject: subjectDescriptor,
  });
  return { subject: subject.digest, signature: signature.digest, sbom: sbom.digest };
}

test('a manifest with a subject is accepted before its subject exists, and acknowledged with OCI-Subject', async () => {
  const plain = await pushImage(base(), 'acme/app', 'plain');
  const subject = digestOf('not pushed yet');
  const manifest = imageManifest([{ mediaType: 'application/octet-stream', bytes: 'layer' }], {
    subject: { mediaType: OCI_MANIFEST, digest: subject, size: 10 },
  });
  const res = await putManifest(base(), 'acme/app', 'ref', manifest);
  assert.equal(res.status, 201);
  assert.equal(res.headers.get('oci-subject'), subject);
  const again = await putManifest(base(), 'acme/app', 'plain', plain.bytes);
  assert.equal(again.headers.get('oci-subject'), null, 'no subject, no header');
});

test('GET referrers: an image index of the manifests whose subject is the digest', async () => {
  const { subject, signature, sbom } = await subjectAndReferrers();
  const { res, index } = await referrers('acme/app', subject);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), OCI_INDEX);
  assert.equal(index.schemaVersion, 2);
  assert.equal(index.mediaType, OCI_INDEX);
  const byDigest = new Map(index.manifests.map((m) => [m.digest, m]));
  assert.deepEqual([...byDigest.keys()].sort(), [signature, sbom].sort());
  assert.equal(byDigest.get(signature)!.artifactType, SIGNATURE);
  assert.deepEqual(byDigest.get(signature)!.annotations, { 'org.example.signer': 'acme' });
  assert.equal(byDigest.get(sbom)!.artifactType, SBOM, 'artifactType falls back to the config mediaType');
  assert.equal(byDigest.get(sbom)!.mediaType, OCI_MANIFEST);
  assert.ok(byDigest.get(sbom)!.size > 0);
});

test('artifactType filter: only matching referrers, and OCI-Filters-Applied: artifactType', async () => {
  const { subject, signature } = await subjectAndReferrers();
  const { res, index } = await referrers('acme/app', subject, `?artifactType=${encodeURIComponent(SIGNATURE)}`);
  assert.equal(res.headers.get('oci-filters-applied'), 'artifactType');
  assert.deepEqual(
    index.manifests.map((m) => m.digest),
    [signature],
  );
  assert.equal((await referrers('acme/app', subject)).res.headers.get('oci-filters-applied'), null);
});

test('no referrers, or no such repository, is an empty index and never a 404', async () => {
  await pushImage(base(), 'acme/app', '1.0.0');
  for (const name of ['acme/app', 'acme/unknown']) {
    const { res, index } = await referrers(name, digestOf('lonely'));
    assert.equal(res.status, 200, name);
    assert.deepEqual(index.manifests, []);
  }
});

test('a malformed digest is 400', async () => {
  const res = await fetch(`${base()}/v2/acme/app/referrers/sha256:nothex`);
  assert.equal(res.status, 400);
  assert.deepEqual(await errorCodes(res), ['DIGEST_INVALID']);
});

test('deleting a referrer removes it from the list', async () => {
  const { subject, signature, sbom } = await subjectAndReferrers();
  assert.equal((await fetch(`${base()}/v2/acme/app/manifests/${signature}`, { method: 'DELETE' })).status, 202);
  assert.deepEqual(
    (await referrers('acme/app', subject)).index.manifests.map((m) => m.digest),
    [sbom],
  );
});
