// The suite tests and the requirements they check, from Playwright's `test --list --reporter=json`: the `req`
// annotations of every test (fixtures/req.ts), never a scan of source text. Pure.

interface ListedTest {
  annotations?: { type?: string; description?: string }[];
}
interface ListedSuite {
  specs?: { title?: string; file?: string; tests?: ListedTest[] }[];
  suites?: ListedSuite[];
}
export interface PlaywrightListing {
  suites?: ListedSuite[];
  errors?: { message?: string }[];
}

export function checkedRequirements(listing: PlaywrightListing): string[] {
  return [...new Set(suiteTests(listing).flatMap((t) => t.requirements))].sort();
}

/** Suites that failed to load: their requirements are missing from the listing, which the report must say. */
export function listingErrors(listing: PlaywrightListing): string[] {
  return (listing.errors ?? []).map((e) => `suite listing: ${(e.message ?? 'unknown error').split('\n')[0]}`);
}

/** One suite test as the listing names it: its file under suites/, its title, the requirements it checks. */
export interface SuiteTest {
  file: string;
  title: string;
  requirements: string[];
}

/** Every test of the listing that names a requirement, in listing order (spec/coverage.txt is built from them). */
export function suiteTests(listing: PlaywrightListing): SuiteTest[] {
  const out: SuiteTest[] = [];
  const walk = (suite: ListedSuite): void => {
    for (const spec of suite.specs ?? []) {
      const ids = (spec.tests ?? []).flatMap((t) => (t.annotations ?? []).filter((a) => a.type === 'req' && a.description));
      const requirements = [...new Set(ids.map((a) => a.description!))];
      if (requirements.length > 0) out.push({ file: spec.file ?? '', title: spec.title ?? '', requirements });
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const s of listing.suites ?? []) walk(s);
  return out;
}
