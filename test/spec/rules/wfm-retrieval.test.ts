// The retrieval-workflow rules judged from a registry's request log (spec/rules/wfm-retrieval.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accepts, ociPullRules, retrievalOrder, tokenRules, type RecordedPull } from '../../../spec/rules/wfm-retrieval.ts';

const pkg = { name: 'ns/app', version: '1.1.0', manifestDigest: 'sha256:m', layerDigests: ['sha256:a', 'sha256:b'] };
const oci = 'application/vnd.oci.image.manifest.v1+json';
const get = (path: string, extra: Partial<RecordedPull> = {}): RecordedPull => ({ method: 'GET', path, query: '', status: 200, ...extra });
const good = [
  get('/v2/ns/app/tags/list'),
  get('/v2/ns/app/manifests/1.1.0', { accept: oci }),
  get('/v2/ns/app/blobs/sha256:a'),
  get('/v2/ns/app/blobs/sha256:b'),
];

test('a list, manifest, layers sequence has no finding', () => {
  assert.deepEqual(retrievalOrder(good, pkg), []);
  assert.deepEqual(ociPullRules(good, pkg), []);
});

test('no tag listing, a skipped layer, and a blob before its manifest are findings', () => {
  assert.deepEqual(
    retrievalOrder(good.slice(1), pkg).map((f) => f.rule),
    ['versions-listed-first'],
  );
  assert.deepEqual(
    retrievalOrder(good.slice(0, 3), pkg).map((f) => f.rule),
    ['each-layer-pulled'],
  );
  assert.deepEqual(
    retrievalOrder([good[0]!, good[2]!, good[1]!, good[3]!], pkg).map((f) => f.rule),
    ['layers-after-manifest'],
  );
});

test('a manifest GET without an OCI Accept is a finding; q=0 refuses the type', () => {
  assert.deepEqual(
    ociPullRules([get('/v2/ns/app/manifests/1.1.0')], pkg).map((f) => f.rule),
    ['manifest-accept'],
  );
  assert.equal(accepts(`${oci};q=0`, oci), false);
  assert.equal(accepts(`application/json, ${oci}; q=0.5`, oci), true);
});

test('a token asked for the pull scope, then used on every pull', () => {
  const token = get('/token', { query: 'service=s&scope=repository%3Ans%2Fapp%3Apull' });
  const bearer = { authorization: 'Bearer t' };
  assert.deepEqual(
    tokenRules([get('/v2/ns/app/tags/list', { status: 401 }), token, get('/v2/ns/app/tags/list', bearer)], pkg, '/token'),
    [],
  );
  assert.deepEqual(
    tokenRules([get('/v2/ns/app/tags/list', { status: 401 })], pkg, '/token').map((f) => f.rule),
    ['token-requested'],
  );
  assert.deepEqual(
    tokenRules([token, get('/v2/ns/app/tags/list')], pkg, '/token').map((f) => f.rule),
    ['token-used'],
  );
});
