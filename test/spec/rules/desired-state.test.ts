import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  digestOf,
  etagMatches,
  judgeStateManifestSequence,
  parseEntityTags,
  sameContent,
  verifyDigest,
} from '../../../spec/rules/desired-state.ts';
import type { StateManifest } from '../../../spec/types.ts';
import { fcOptions } from '../../support/fc.ts';

const fcOpts = fcOptions(300);
const rules = (fs: { rule: string }[]) => fs.map((f) => f.rule);

const D1 = { deploymentId: 'a3e2f5dc-912e-494f-8395-52cf5769d0ab', digest: `sha256:${'1'.repeat(64)}`, url: '/d/1' };
const D2 = { deploymentId: 'b3e2f5dc-912e-494f-8395-52cf5769d0ab', digest: `sha256:${'2'.repeat(64)}`, url: '/d/2' };
const manifest = (manifestVersion: number, deployments = [D1]): StateManifest => ({
  manifestVersion,
  bundle: { mediaType: 'application/vnd.platform.bundle.v1+tar+gzip', digest: `sha256:${'b'.repeat(64)}`, url: '/b' },
  deployments,
});

test('P4: the first manifest only needs a version in [1, 2^64-1]', () => {
  assert.deepEqual(judgeStateManifestSequence(undefined, manifest(1)), []);
  assert.deepEqual(rules(judgeStateManifestSequence(undefined, manifest(0))), ['manifest-version-range']);
  assert.deepEqual(rules(judgeStateManifestSequence(undefined, manifest(2.5))), ['manifest-version-range']);
});

test('P4 + §2.4.1 rule 7: changed content needs a greater version; equal content may be re-served at the same version', () => {
  assert.deepEqual(judgeStateManifestSequence(manifest(4), manifest(4)), []);
  assert.deepEqual(judgeStateManifestSequence(manifest(4, [D1, D2]), manifest(4, [D2, D1])), [], 'deployment order carries no meaning');
  assert.deepEqual(judgeStateManifestSequence(manifest(4), manifest(5, [D1, D2])), []);
  assert.deepEqual(judgeStateManifestSequence(manifest(4), manifest(5)), [], 'a bump without a change is allowed');
  assert.deepEqual(rules(judgeStateManifestSequence(manifest(4), manifest(4, [D1, D2]))), ['manifest-version-repeats']);
  assert.deepEqual(rules(judgeStateManifestSequence(manifest(4), manifest(3))), ['manifest-version-decreases']);
});

test('P4: a lower version is always a finding, a higher one never is', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2 ** 40 }), fc.integer({ min: 1, max: 2 ** 40 }), fc.boolean(), (a, b, change) => {
      const found = judgeStateManifestSequence(manifest(a), manifest(b, change ? [D2] : [D1]));
      if (b > a) assert.deepEqual(found, []);
      else if (b < a) assert.deepEqual(rules(found), ['manifest-version-decreases']);
      else assert.deepEqual(rules(found), change ? ['manifest-version-repeats'] : []);
    }),
    fcOpts,
  );
});

test('sameContent ignores key order', () => {
  const m = manifest(1);
  const reordered = {
    deployments: m.deployments.map((d) => ({ url: d.url, digest: d.digest, deploymentId: d.deploymentId })),
    bundle: m.bundle,
    manifestVersion: 1,
  };
  assert.equal(sameContent(m, reordered), true);
});

test('P4: digests are sha256:<lowercase hex> over the exact bytes', () => {
  const empty = new Uint8Array();
  assert.equal(digestOf(empty), 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(digestOf(new TextEncoder().encode('{}')), 'sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  assert.match(digestOf(empty, 'sha512'), /^sha512:[0-9a-f]{128}$/);
  assert.throws(() => digestOf(empty, 'md5'));
});

test('verifyDigest accepts only the well-formed digest of the same bytes', () => {
  const bytes = new TextEncoder().encode('apiVersion: v1\n');
  const d = digestOf(bytes);
  assert.equal(verifyDigest(bytes, d), true);
  assert.equal(verifyDigest(bytes, d.toUpperCase()), false);
  assert.equal(verifyDigest(bytes, d.slice(0, -1)), false);
  assert.equal(verifyDigest(bytes, `md5:${d.slice(7)}`), false);
  assert.equal(verifyDigest(bytes, d.slice(7)), false);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 64 }), (a, b) => {
      assert.equal(verifyDigest(a, digestOf(a)), true);
      assert.equal(verifyDigest(b, digestOf(a)), Buffer.from(a).equals(Buffer.from(b)));
    }),
    fcOpts,
  );
});

test('RFC 9110 §13.1.2: If-None-Match uses weak comparison over a list, and * matches any current tag', () => {
  assert.equal(etagMatches(undefined, '"a"'), false);
  assert.equal(etagMatches('"a"', '"a"'), true);
  assert.equal(etagMatches('W/"a"', '"a"'), true);
  assert.equal(etagMatches('"a"', 'W/"a"'), true);
  assert.equal(etagMatches('"x", W/"a" ,"y"', '"a"'), true);
  assert.equal(etagMatches('"x", "y"', '"a"'), false);
  assert.equal(etagMatches(' * ', '"anything"'), true);
  assert.equal(etagMatches('"sha256:ab"', 'sha256:ab'), true, 'a bare current tag is its own opaque tag');
  assert.equal(etagMatches('a', '"a"'), false, 'an unquoted member is not an entity-tag');
  assert.deepEqual(parseEntityTags('"a,b", junk, W/"c"'), ['a,b', 'c'], 'a comma inside quotes belongs to the tag');
});

test('etagMatches: a list matches exactly when one member has the same opaque tag', () => {
  const etagc = fc.string({ unit: fc.constantFrom(...'abcXYZ019:-,/'), maxLength: 6 });
  fc.assert(
    fc.property(fc.array(fc.tuple(etagc, fc.boolean()), { maxLength: 5 }), etagc, fc.boolean(), (members, current, weak) => {
      const header = members.map(([t, w]) => `${w ? 'W/' : ''}"${t}"`).join(', ');
      const expected = members.some(([t]) => t === current);
      assert.equal(etagMatches(header, `${weak ? 'W/' : ''}"${current}"`), expected);
    }),
    fcOpts,
  );
});
