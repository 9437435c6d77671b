// fast-check options of the kit's own property tests: a failure prints its seed and path; replay it with
// WFMCK_SEED=<seed> WFMCK_PATH=<path> npm run test:unit.
export function fcOptions(numRuns: number): { seed?: number; path?: string; numRuns: number } {
  const seed = process.env.WFMCK_SEED;
  return { numRuns, ...(seed ? { seed: Number(seed) } : {}), ...(process.env.WFMCK_PATH ? { path: process.env.WFMCK_PATH } : {}) };
}
