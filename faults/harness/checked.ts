// The requirements the suites check, from Playwright's `test --list --reporter=json`: the `req` annotations of every
// test (fixtures/req.ts), never a scan of source text. Pure.

interface ListedTest {
  annotations?: { type?: string; description?: string }[];
}
interface ListedSuite {
  specs?: { tests?: ListedTest[] }[];
  suites?: ListedSuite[];
}
export interface PlaywrightListing {
  suites?: ListedSuite[];
  errors?: { message?: string }[];
}

export function checkedRequirements(listing: PlaywrightListing): string[] {
  const ids = new Set<string>();
  const walk = (suite: ListedSuite): void => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) for (const a of t.annotations ?? []) if (a.type === 'req' && a.description) ids.add(a.description);
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const s of listing.suites ?? []) walk(s);
  return [...ids].sort();
}

/** Suites that failed to load: their requirements are missing from the listing, which the report must say. */
export function listingErrors(listing: PlaywrightListing): string[] {
  return (listing.errors ?? []).map((e) => `suite listing: ${(e.message ?? 'unknown error').split('\n')[0]}`);
}
