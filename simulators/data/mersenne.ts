// Faker's default randomizer (MT19937, 53-bit draws: generateMersenne53Randomizer) with the same draws for every seed,
// its state kept in a Uint32Array. Faker's own builds a 624-entry array with Array.from on each seeding, ~27 µs of the
// ~75 µs a plain device's description costs, and the kit reseeds a Faker per device (draw.ts). A property test holds
// the two to the same draws (test/simulators/data-mersenne.test.ts): a seed path must make the same devices as before.
import type { Randomizer } from '@faker-js/faker';

const N = 624;
const M = 397;
const UPPER = 0x80000000;
const LOWER = 0x7fffffff;
const MATRIX_A = 0x9908b0df;

/**
 * Every operation below reads its operands as 32-bit integers, as Faker's do: storing a sum modulo 2^32 (the typed
 * array's conversion) keeps the bits Faker's later operations read from its unreduced number.
 */
function initGenrand(state: Uint32Array, seed: number): void {
  state[0] = seed;
  for (let i = 1; i < N; i++) {
    const prev = state[i - 1]! ^ (state[i - 1]! >>> 30);
    state[i] = Math.imul(1812433253, prev) + i;
  }
}

/** The state init_by_array starts from, the same for every key. */
const BY_ARRAY_BASE = new Uint32Array(N);
initGenrand(BY_ARRAY_BASE, 19650218);

function initByArray(state: Uint32Array, key: readonly number[]): void {
  state.set(BY_ARRAY_BASE);
  let i = 1;
  let j = 0;
  for (let k = Math.max(N, key.length); k !== 0; k--) {
    const prev = state[i - 1]! ^ (state[i - 1]! >>> 30);
    // In floating point, as Faker adds them: a key part beyond 32 bits changes the sum before it is reduced.
    state[i] = Math.trunc((state[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j);
    i++;
    j++;
    if (i >= N) {
      state[0] = state[N - 1]!;
      i = 1;
    }
    if (j >= key.length) j = 0;
  }
  for (let k = N - 1; k !== 0; k--) {
    const prev = state[i - 1]! ^ (state[i - 1]! >>> 30);
    state[i] = (state[i]! ^ Math.imul(prev, 1566083941)) - i;
    i++;
    if (i >= N) {
      state[0] = state[N - 1]!;
      i = 1;
    }
  }
  state[0] = UPPER;
}

function twist(state: Uint32Array): void {
  let i = 0;
  for (; i < N - M; i++) {
    const y = (state[i]! & UPPER) | (state[i + 1]! & LOWER);
    state[i] = state[i + M]! ^ (y >>> 1) ^ (-(y & 1) & MATRIX_A);
  }
  for (; i < N - 1; i++) {
    const y = (state[i]! & UPPER) | (state[i + 1]! & LOWER);
    state[i] = state[i + M - N]! ^ (y >>> 1) ^ (-(y & 1) & MATRIX_A);
  }
  const y = (state[N - 1]! & UPPER) | (state[0]! & LOWER);
  state[N - 1] = state[M - 1]! ^ (y >>> 1) ^ (-(y & 1) & MATRIX_A);
}

/** A randomizer whose `next()` is Faker's default randomizer's for the same seed, draw after draw. */
export function mersenne53Randomizer(seed: number | readonly number[] = 0): Randomizer {
  const state = new Uint32Array(N);
  let index = 0;
  const reseed = (s: number | readonly number[]) => {
    if (typeof s === 'number') initGenrand(state, s);
    else initByArray(state, s);
    twist(state);
    index = 0;
  };
  const nextU32 = () => {
    let y = state[index]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    if (++index >= N) {
      twist(state);
      index = 0;
    }
    return y >>> 0;
  };
  reseed(seed);
  return {
    next: () => {
      const high = nextU32() >>> 5;
      const low = nextU32() >>> 6;
      return (high * 67108864 + low) * 11102230246251565e-32;
    },
    seed: reseed,
  };
}
