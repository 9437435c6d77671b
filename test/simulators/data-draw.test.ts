// withFaker reuses one Faker per nesting depth: the draws must be those of a Faker made fresh for each seed path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { faker as english } from '@faker-js/faker/locale/en';
import type { Faker } from '@faker-js/faker';
import { withFaker } from '../../simulators/data/draw.ts';

const fresh = (seedPath: number[]): Faker => {
  const f = new (english.constructor as new (o: { locale: Faker['rawDefinitions'] }) => Faker)({ locale: english.rawDefinitions });
  f.seed(seedPath);
  return f;
};

test('a draw nested inside another leaves the outer sequence as a fresh Faker draws it', () => {
  const nested = withFaker([1, 2], (outer) => {
    const before = outer.number.int();
    const inner = withFaker([1, 2, 1], (f) => [f.person.firstName(), f.number.int()]);
    return { before, inner, after: outer.number.int() };
  });
  const o = fresh([1, 2]);
  const i = fresh([1, 2, 1]);
  assert.deepEqual(nested, { before: o.number.int(), inner: [i.person.firstName(), i.number.int()], after: o.number.int() });
  // And a reseeded Faker draws as a fresh one, whatever it drew before.
  assert.deepEqual(
    withFaker([9], (f) => f.string.alphanumeric(12)),
    fresh([9]).string.alphanumeric(12),
  );
});

test('an asynchronous draw is refused: its Faker would be reseeded under it', () => {
  assert.throws(() => withFaker([1], async (f) => f.number.int()), /must be synchronous/);
  // The depth was restored: the next draw is a fresh one's.
  assert.equal(
    withFaker([3], (f) => f.number.int()),
    fresh([3]).number.int(),
  );
});
