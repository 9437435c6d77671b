// Deterministic randomness for device data: a Faker seeded per device, and a cheap hash draw for knobs.
import type { Faker, Randomizer } from '@faker-js/faker';
// The English locale's entry alone: the package's index imports every locale (~32 MB more RSS in each process that
// describes devices). Its instance's class and merged definitions (en over base) make the same data for a seed.
import { faker as english } from '@faker-js/faker/locale/en';
import { mersenne53Randomizer } from './mersenne.ts';

const FakerOfEnglish = english.constructor as new (options: { locale: Faker['rawDefinitions']; randomizer: Randomizer }) => Faker;

/**
 * Runs `draw` with a Faker seeded by `seedPath` alone (never the global one), so a device's data depends only on its
 * seed path, not on call order. Making a Faker costs ~100 µs (it binds every module's methods) and seeding one ~4 µs
 * (mersenne.ts; ~30 µs with Faker's own randomizer, same draws), so each nesting depth keeps one and reseeds it: a
 * description is synchronous, and a gateway's children are drawn, one level deeper, while its own Faker is still in
 * use. `draw` must not keep the Faker or await.
 */
export function withFaker<T>(seedPath: readonly number[], draw: (faker: Faker) => T): T {
  const faker = (fakers[depth] ??= new FakerOfEnglish({ locale: english.rawDefinitions, randomizer: mersenne53Randomizer() }));
  faker.seed([...seedPath]);
  depth++;
  try {
    const drawn = draw(faker);
    if (drawn instanceof Promise) throw new Error('withFaker: draw must be synchronous (its Faker is reseeded after it)');
    return drawn;
  } finally {
    depth--;
  }
}

const fakers: Faker[] = [];
let depth = 0;

/** A uniform number in [0, 1) fixed by `parts` (integers of any size); cheaper than a Faker for one draw. */
export function uniform(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const whole = Math.trunc(part);
    // Both 32-bit halves, so seeds beyond 2^32 still change the draw.
    for (const word of [whole >>> 0, Math.floor(whole / 2 ** 32) >>> 0]) {
      h = Math.imul(h ^ word, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      h ^= h >>> 16;
    }
  }
  return (h >>> 0) / 2 ** 32;
}
