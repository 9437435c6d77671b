// If-None-Match evaluation of the identity role (§4.5, §4.6; RFC 9110 §13.1.2 weak comparison).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ifNoneMatchHits } from '../../protocol/conditional.ts';

const seed = process.env.WFMCK_SEED === undefined ? undefined : Number(process.env.WFMCK_SEED);
const ETAG = '"sha256:abc"';

test('examples: exact, weak, lists, * and malformed values', () => {
  const cases: [string | undefined, boolean][] = [
    [undefined, false],
    ['', false],
    [ETAG, true],
    [`W/${ETAG}`, true],
    ['"x", "sha256:abc"', true],
    [' , "x" ,, W/"sha256:abc" , ', true],
    ['*', true],
    [' * ', true],
    ['"sha256:abd"', false],
    ['sha256:abc', false],
    ['"x" "sha256:abc"', false],
    ['*, "x"', false],
    ['"sha256:abc', false],
  ];
  for (const [header, hit] of cases) assert.equal(ifNoneMatchHits(header, ETAG), hit, String(header));
});

// Opaque tags from etagc (no space, no DQUOTE), with the comma and W/ that a naive split would trip on.
const opaqueTag = fc.string({ unit: fc.constantFrom(...'abcdef0123456789:-,=/W'.split('')), maxLength: 12 });
const listOf = (tags: string[], weak: boolean[]) => tags.map((t, i) => `${weak[i] ? 'W/' : ''}"${t}"`).join(', ');

test('a list hits exactly when one of its tags, weak or strong, equals the current tag', () => {
  const property = fc.property(
    opaqueTag,
    fc.array(opaqueTag, { maxLength: 5 }),
    fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
    (current, tags, weak) => {
      assert.equal(ifNoneMatchHits(listOf(tags, weak), `"${current}"`), tags.includes(current));
    },
  );
  fc.assert(property, { numRuns: 300, ...(seed === undefined ? {} : { seed }) });
});
