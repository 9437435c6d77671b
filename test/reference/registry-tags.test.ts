// Listing tags (distribution-spec v1.1 "Listing Tags"): lexical order, `n`, `last`, the `Link: rel="next"`
// header, and a property test that walking the Link pages yields every tag exactly once, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { errorCodes, pushBlob, pushImage, putManifest, replayParameters, useRegistry } from './registry-helpers.ts';

const registry = useRegistry();
const base = () => registry.current.url;

async function tagRepo(name: string, tags: readonly string[]): Promise<void> {
  const { bytes } = await pushImage(base(), name, tags[0]!);
  for (const tag of tags.slice(1)) assert.equal((await putManifest(base(), name, tag, bytes)).status, 201);
}

async function list(path: string): Promise<{ res: Response; tags: string[]; link: string | null }> {
  const res = await fetch(`${base()}${path}`);
  const body = (await res.json()) as { tags: string[] };
  return { res, tags: body.tags, link: res.headers.get('link') };
}

/** Follows `Link: <...>; rel="next"` from the first page to the end; answers every page. */
async function walk(name: string, n: number): Promise<string[][]> {
  const pages: string[][] = [];
  let next: string | undefined = `/v2/${name}/tags/list?n=${n}`;
  while (next !== undefined) {
    assert.ok(pages.length < 1000, 'pagination does not end');
    const page = await list(next);
    assert.equal(page.res.status, 200);
    pages.push(page.tags);
    next = page.link === null ? undefined : /^<([^>]+)>;\s*rel="next"$/.exec(page.link)?.[1];
    if (page.link !== null) assert.ok(next, `malformed Link: ${page.link}`);
  }
  return pages;
}

test('GET tags/list: 200 {name, tags} in lexical (ASCIIbetical) order', async () => {
  await tagRepo('acme/app', ['b', 'a', 'B', '2.0.0', '10.0.0', '1.0.0']);
  const { res, tags } = await list('/v2/acme/app/tags/list');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/json');
  assert.deepEqual(tags, ['1.0.0', '10.0.0', '2.0.0', 'B', 'a', 'b']);
  assert.equal(res.headers.get('link'), null);
});

test('n cuts the first page and a Link header points at the next one', async () => {
  await tagRepo('acme/app', ['v1', 'v2', 'v3', 'v4', 'v5']);
  const first = await list('/v2/acme/app/tags/list?n=2');
  assert.deepEqual(first.tags, ['v1', 'v2']);
  assert.equal(first.link, '</v2/acme/app/tags/list?n=2&last=v2>; rel="next"');
  const last = await list('/v2/acme/app/tags/list?n=2&last=v4');
  assert.deepEqual(last.tags, ['v5']);
  assert.equal(last.link, null);
});

test('walking the Link pages ends with every tag once, in order', async () => {
  const tags = ['1.0.0', '1.1.0', '2.0.0', 'latest', 'stable', 'z'];
  await tagRepo('acme/apps/hello', tags);
  for (const n of [1, 2, 3, 6, 7]) assert.deepEqual((await walk('acme/apps/hello', n)).flat(), tags, `n=${n}`);
});

test('last returns the tags strictly after it, with or without n', async () => {
  await tagRepo('acme/app', ['a', 'b', 'c', 'd']);
  assert.deepEqual((await list('/v2/acme/app/tags/list?last=b')).tags, ['c', 'd']);
  assert.deepEqual((await list('/v2/acme/app/tags/list?last=bb&n=1')).tags, ['c'], 'last need not be an existing tag');
  assert.deepEqual((await list('/v2/acme/app/tags/list?last=d')).tags, []);
});

test('n=0 is an empty list without a Link header', async () => {
  await tagRepo('acme/app', ['a', 'b']);
  for (const query of ['n=0', 'n=0&last=a']) {
    const page = await list(`/v2/acme/app/tags/list?${query}`);
    assert.equal(page.res.status, 200);
    assert.deepEqual(page.tags, []);
    assert.equal(page.link, null);
  }
});

test('a repository without tags lists none; an unknown one is 404 NAME_UNKNOWN', async () => {
  await pushBlob(base(), 'acme/untagged', 'blob');
  assert.deepEqual((await list('/v2/acme/untagged/tags/list')).tags, []);
  const res = await fetch(`${base()}/v2/acme/unknown/tags/list`);
  assert.equal(res.status, 404);
  assert.deepEqual(await errorCodes(res), ['NAME_UNKNOWN']);
});

test('an n that is not a non-negative integer is 400', async () => {
  await tagRepo('acme/app', ['a']);
  for (const n of ['-1', 'x', '1.5', '']) {
    const res = await fetch(`${base()}/v2/acme/app/tags/list?n=${n}`);
    assert.equal(res.status, 400, n);
  }
});

test('property: for any tag set and any n >= 1, the Link pages are the sorted set, each tag once', async () => {
  const { store } = registry.current;
  const tag = fc.stringMatching(/^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,12}$/);
  const record = { digest: `sha256:${'0'.repeat(64)}`, bytes: Buffer.from('{}'), mediaType: 'application/vnd.oci.image.manifest.v1+json' };
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(tag, { maxLength: 25 }), fc.integer({ min: 1, max: 10 }), async (tags, n) => {
      store.reset();
      // Seeding through the store keeps runs fast; what is under test is the HTTP listing.
      store.putManifest('acme/prop', record);
      for (const t of tags) store.putManifest('acme/prop', record, t);
      const pages = await walk('acme/prop', n);
      assert.deepEqual(pages.flat(), [...tags].sort());
      assert.ok(pages.every((p) => p.length <= n));
      assert.ok(
        pages.slice(0, -1).every((p) => p.length === n),
        'only the last page is short',
      );
    }),
    { numRuns: 100, ...replayParameters() },
  );
});
