// The kit's MT19937 (simulators/data/mersenne.ts) draws what Faker's default randomizer draws, for any seed: every seed
// path keeps making the same devices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { generateMersenne53Randomizer } from '@faker-js/faker';
import { mersenne53Randomizer } from '../../simulators/data/mersenne.ts';
import { fcOptions } from '../support/fc.ts';

// Past 624 words of state a draw takes two words, so 700 draws cross the state's regeneration twice.
const DRAWS = 700;

const draws = (r: { next(): number }, n = DRAWS) => Array.from({ length: n }, () => r.next());

/** Faker's own, seeded as Faker seeds it (its factory takes a number alone). */
const fakers = (s: number | number[]) => {
  const r = generateMersenne53Randomizer();
  r.seed(s);
  return r;
};

// Seed parts as a seed path holds them, and the edges of Faker's arithmetic: beyond 32 bits, beyond 2^53, negative,
// fractional, not finite.
const part = fc.oneof(
  fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  fc.integer({ min: -(2 ** 31), max: 2 ** 32 }),
  fc.maxSafeInteger(),
  fc.double({ noNaN: false }),
);
const seed = fc.oneof(part, fc.array(part, { maxLength: 8 }), fc.array(fc.nat(), { minLength: 620, maxLength: 700 }));

test("property: the same draws as Faker's default randomizer for any seed, and after any reseeding", () => {
  fc.assert(
    fc.property(seed, seed, fc.integer({ min: 0, max: 800 }), (first, second, before) => {
      const ours = mersenne53Randomizer(first);
      const theirs = fakers(first);
      assert.deepEqual(draws(ours), draws(theirs));
      draws(ours, before);
      draws(theirs, before);
      ours.seed(second);
      theirs.seed(second);
      assert.deepEqual(draws(ours), draws(theirs));
    }),
    fcOptions(300),
  );
});

test('the empty seed path and the seeds withFaker uses draw as Faker does', () => {
  for (const s of [[], [0], [1], [1, 2], [7, 0, 3], 0, 42]) {
    assert.deepEqual(draws(mersenne53Randomizer(s)), draws(fakers(s)), JSON.stringify(s));
  }
});
