// What Debian's docker-registry (distribution 2.8) answers where it differs from the reference registry, probe by probe,
// with what the OCI Distribution Specification (v1.1) says and which side it supports.
import assert from 'node:assert/strict';
import { OCI_MANIFEST } from '../../spec/media-types.ts';
import { freshName, pushManifest, putBlob, putManifest, send, sha256, type Answer } from './probe.ts';

export type Verdict = 'real departs from the spec' | 'both allowed by the spec';

export interface Observation {
  title: string;
  verdict: Verdict;
  /** The spec text that decides, paraphrased with its section. */
  spec: string;
  probe(base: string): Promise<Record<string, Answer>>;
  real(a: Record<string, Answer>): void;
  reference(a: Record<string, Answer>): void;
}

const TAGS = ['b', 'a', 'd', 'c', 'e'];
const SHUFFLED = 30;
const tagsOf = (a: Answer) => (JSON.parse(a.text) as { tags: string[] }).tags;
const codeOf = (a: Answer) => (JSON.parse(a.text) as { errors: { code: string }[] }).errors[0]!.code;

async function tagged(base: string, query: string): Promise<Record<string, Answer>> {
  const name = freshName('tags');
  for (const tag of TAGS) await putManifest(base, name, tag, `layer ${tag}`);
  return { list: await send(base, 'GET', `/v2/${name}/tags/list${query}`) };
}

async function manifestWith(base: string, method: string, headers: Record<string, string>): Promise<Record<string, Answer>> {
  const name = freshName('accept');
  await putManifest(base, name, '1.0.0');
  return { get: await send(base, method, `/v2/${name}/manifests/1.0.0`, { headers }) };
}

async function openUpload(base: string, name: string): Promise<string> {
  const post = await send(base, 'POST', `/v2/${name}/blobs/uploads/`);
  return new URL(post.headers.get('location')!, base).href;
}

const octets = (range: string) => ({ 'Content-Type': 'application/octet-stream', 'Content-Range': range });

export const OBSERVATIONS: Observation[] = [
  {
    title: 'tags/list ignores n: every tag, no Link',
    verdict: 'real departs from the spec',
    spec: 'Listing Tags: with n the registry MUST return at most n tags (fewer only at the end or with a Link rel="next")',
    probe: (base) => tagged(base, '?n=2'),
    real: ({ list }) => {
      assert.deepEqual([...tagsOf(list!)].sort(), [...TAGS].sort());
      assert.equal(list!.headers.get('link'), null);
    },
    reference: ({ list }) => {
      assert.deepEqual(tagsOf(list!), ['a', 'b']);
      assert.match(list!.headers.get('link') ?? '', /rel="next"/);
    },
  },
  {
    title: 'tags/list ignores last: the tags before it come back too',
    verdict: 'real departs from the spec',
    spec: 'Listing Tags: with last the registry returns the tags after it in lexical order, not including it',
    probe: (base) => tagged(base, '?n=2&last=b'),
    real: ({ list }) => assert.equal(tagsOf(list!).length, TAGS.length),
    reference: ({ list }) => assert.deepEqual(tagsOf(list!), ['c', 'd']),
  },
  {
    title: 'tags/list with n=0 lists every tag',
    verdict: 'real departs from the spec',
    spec: 'Listing Tags: n=0 MUST return an empty list and no Link header',
    probe: (base) => tagged(base, '?n=0'),
    real: ({ list }) => assert.equal(tagsOf(list!).length, TAGS.length),
    reference: ({ list }) => assert.deepEqual(tagsOf(list!), []),
  },
  {
    title: 'tags/list is not in lexical order (30 tags pushed in a shuffled order)',
    verdict: 'real departs from the spec',
    spec: 'Listing Tags: a non-empty list MUST be in lexical ("ASCIIbetical") order',
    probe: async (base) => {
      const name = freshName('order');
      // 7 is coprime with 30, so this visits every tag once, far from lexical order; no filesystem sorts it back by chance.
      for (let i = 0; i < SHUFFLED; i++) await putManifest(base, name, `t${String((i * 7) % SHUFFLED).padStart(2, '0')}`, 'same layer');
      return { list: await send(base, 'GET', `/v2/${name}/tags/list`) };
    },
    real: ({ list }) => {
      const tags = tagsOf(list!);
      assert.equal(tags.length, SHUFFLED);
      assert.notDeepEqual(tags, [...tags].sort());
    },
    reference: ({ list }) => assert.deepEqual(tagsOf(list!), [...tagsOf(list!)].sort()),
  },
  {
    title: 'a manifest GET without Accept is a 404 MANIFEST_UNKNOWN for an OCI manifest that exists',
    verdict: 'real departs from the spec',
    spec: 'Pulling manifests: an existing manifest MUST be returned with 200; Accept is a client SHOULD, and RFC 9110 reads no Accept as "anything"',
    probe: (base) => manifestWith(base, 'GET', {}),
    real: ({ get }) => {
      assert.equal(get!.status, 404);
      assert.equal(codeOf(get!), 'MANIFEST_UNKNOWN');
      assert.match(get!.text, /accept header does not support OCI manifests/);
    },
    reference: ({ get }) => assert.equal(get!.status, 200),
  },
  {
    title: 'a manifest GET with Accept: */* is a 404 as well',
    verdict: 'real departs from the spec',
    spec: 'Pulling manifests defers to RFC 9110 content negotiation, where */* accepts every media type',
    probe: (base) => manifestWith(base, 'GET', { Accept: '*/*' }),
    real: ({ get }) => assert.equal(get!.status, 404),
    reference: ({ get }) => assert.equal(get!.status, 200),
  },
  {
    title: 'a manifest HEAD without Accept is a 404; with the OCI media type in Accept, 200',
    verdict: 'real departs from the spec',
    spec: 'Checking if content exists: HEAD MUST answer 200 when the manifest exists',
    probe: async (base) => ({
      ...(await manifestWith(base, 'HEAD', {})),
      oci: (await manifestWith(base, 'HEAD', { Accept: OCI_MANIFEST })).get!,
    }),
    real: ({ get, oci }) => assert.deepEqual([get!.status, oci!.status], [404, 200]),
    reference: ({ get, oci }) => assert.deepEqual([get!.status, oci!.status], [200, 200]),
  },
  {
    title: 'no referrers API: GET /v2/<name>/referrers/<digest> is a plain-text 404',
    verdict: 'both allowed by the spec',
    spec: 'Listing Referrers is new in 1.1; a 404 tells the client to fall back to the referrers tag schema',
    probe: async (base) => {
      const name = freshName('referrers');
      return { get: await send(base, 'GET', `/v2/${name}/referrers/${await putManifest(base, name, 'x')}`) };
    },
    real: ({ get }) => assert.deepEqual([get!.status, get!.text.trim()], [404, '404 page not found']),
    reference: ({ get }) => assert.deepEqual([get!.status, JSON.parse(get!.text).manifests], [200, []]),
  },
  {
    title: 'a manifest with a subject is stored without an OCI-Subject header',
    verdict: 'both allowed by the spec',
    spec: 'Pushing manifests with subject: a registry without the referrers API omits OCI-Subject and the client updates the referrers tag',
    probe: async (base) => {
      const name = freshName('subject');
      const subject = { mediaType: OCI_MANIFEST, digest: await putManifest(base, name, 'x'), size: 1 };
      return { put: (await pushManifest(base, name, 'signature', 'signature', { subject })).put };
    },
    real: ({ put }) => assert.deepEqual([put!.status, put!.headers.get('oci-subject')], [201, null]),
    reference: ({ put }) => assert.deepEqual([put!.status, typeof put!.headers.get('oci-subject')], [201, 'string']),
  },
  {
    title: 'a single-request POST upload opens a session (202) and stores nothing',
    verdict: 'both allowed by the spec',
    spec: 'Single POST: registries MAY support it; those that do not SHOULD answer 202 with a Location and the client SHOULD go on with PUT',
    probe: async (base) => {
      const name = freshName('single-post');
      await putBlob(base, name, 'other');
      const post = await send(base, 'POST', `/v2/${name}/blobs/uploads/?digest=${sha256('hello')}`, {
        body: 'hello',
        headers: { 'Content-Type': 'application/octet-stream' },
      });
      return { post, head: await send(base, 'HEAD', `/v2/${name}/blobs/${sha256('hello')}`) };
    },
    real: ({ post, head }) => {
      assert.equal(post!.status, 202);
      assert.match(post!.headers.get('location') ?? '', /\/blobs\/uploads\//);
      assert.equal(head!.status, 404);
    },
    reference: ({ post, head }) => assert.deepEqual([post!.status, head!.status], [201, 200]),
  },
  {
    title: 'a first chunk whose Content-Range does not start at 0 is accepted (202) and appended at 0',
    verdict: 'real departs from the spec',
    spec: 'Pushing a blob in chunks: if a chunk is uploaded out of order, the registry MUST respond with 416',
    probe: async (base) => ({
      patch: await send(base, 'PATCH', await openUpload(base, freshName('chunks')), { body: '56789', headers: octets('5-9') }),
    }),
    real: ({ patch }) => assert.deepEqual([patch!.status, patch!.headers.get('range')], [202, '0-4']),
    reference: ({ patch }) => assert.equal(patch!.status, 416),
  },
  {
    title: "a PATCH to the session's first Location after a chunk is a 404 BLOB_UPLOAD_INVALID",
    verdict: 'both allowed by the spec',
    spec: 'Pushing a blob in chunks: each chunk SHOULD use the Location of the previous answer (here it carries the offset in _state)',
    probe: async (base) => {
      const location = await openUpload(base, freshName('stale'));
      await send(base, 'PATCH', location, { body: '01234', headers: octets('0-4') });
      return { stale: await send(base, 'PATCH', location, { body: '56789', headers: octets('5-9') }) };
    },
    real: ({ stale }) => assert.deepEqual([stale!.status, codeOf(stale!)], [404, 'BLOB_UPLOAD_INVALID']),
    reference: ({ stale }) => assert.equal(stale!.status, 202),
  },
  {
    title: 'upload Locations are absolute and carry a _state query parameter',
    verdict: 'both allowed by the spec',
    spec: 'POST then PUT: the Location MAY be absolute or relative and MAY hold query parameters the client must keep',
    probe: async (base) => ({ post: await send(base, 'POST', `/v2/${freshName('location')}/blobs/uploads/`) }),
    real: ({ post }) => assert.match(post!.headers.get('location') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/v2\/.+\?_state=/),
    reference: ({ post }) => assert.match(post!.headers.get('location') ?? '', /^\/v2\//),
  },
  {
    title: 'deleting a tag is refused with 400 DIGEST_INVALID',
    verdict: 'both allowed by the spec',
    spec: 'Deleting tags: 202 on success; when tag deletion is disabled the registry MUST answer 400 or 405',
    probe: async (base) => {
      const name = freshName('delete-tag');
      await putManifest(base, name, 'gone');
      return { del: await send(base, 'DELETE', `/v2/${name}/manifests/gone`) };
    },
    real: ({ del }) => assert.deepEqual([del!.status, codeOf(del!)], [400, 'DIGEST_INVALID']),
    reference: ({ del }) => assert.equal(del!.status, 202),
  },
  {
    title: 'a repository holding only blobs has no tag list (404 NAME_UNKNOWN)',
    verdict: 'both allowed by the spec',
    spec: 'Listing Tags: 200 "if the repository exists"; whether blobs alone make a repository is not said',
    probe: async (base) => {
      const name = freshName('blobs-only');
      await putBlob(base, name, 'lonely');
      return { list: await send(base, 'GET', `/v2/${name}/tags/list`) };
    },
    real: ({ list }) => assert.deepEqual([list!.status, codeOf(list!)], [404, 'NAME_UNKNOWN']),
    reference: ({ list }) => assert.deepEqual([list!.status, tagsOf(list!)], [200, []]),
  },
  {
    title: 'a manifest PUT to an invalid tag is a plain-text 404 (no route)',
    verdict: 'both allowed by the spec',
    spec: 'Pushing manifests: <reference> MUST be a digest or a tag matching the grammar; end-7 lists 404 among the failures and no status for a bad tag',
    probe: async (base) => ({
      put: await send(base, 'PUT', `/v2/${freshName('bad-tag')}/manifests/-bad`, { body: '{}', headers: { 'Content-Type': OCI_MANIFEST } }),
    }),
    real: ({ put }) => assert.deepEqual([put!.status, put!.text.trim()], [404, '404 page not found']),
    reference: ({ put }) => assert.deepEqual([put!.status, codeOf(put!)], [400, 'MANIFEST_INVALID']),
  },
  {
    title: 'an invalid repository name is a plain-text 404 (no route)',
    verdict: 'both allowed by the spec',
    spec: 'Names MUST match the grammar; NAME_INVALID exists, but the endpoints table only lists 404 as the failure of end-8a',
    probe: async (base) => ({ get: await send(base, 'GET', '/v2/Not_Valid/tags/list') }),
    real: ({ get }) => assert.deepEqual([get!.status, get!.text.trim()], [404, '404 page not found']),
    reference: ({ get }) => assert.deepEqual([get!.status, codeOf(get!)], [400, 'NAME_INVALID']),
  },
];
