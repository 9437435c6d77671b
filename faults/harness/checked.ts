// The suite tests and the requirements they check, from Playwright's `test --list --reporter=json`: the `req`
// annotations of every test (fixtures/req.ts), never a scan of source text. Pure.

interface ListedTest {
  annotations?: { type?: string; description?: string }[];
}
interface ListedSuite {
  /** A file suite's: its path under suites/; a describe's: its title. */
  title?: string;
  specs?: { title?: string; file?: string; tags?: string[]; tests?: ListedTest[] }[];
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

/**
 * The files under suites/ that hold a test `grep` selects, matched as Playwright greps: the title path (file, describes,
 * title) and the tags, joined by spaces. A fault of a batch loads only these (run/contract/fault-batch.ts).
 */
export function filesSelected(listing: PlaywrightListing, grep: RegExp): string[] {
  const files = new Set<string>();
  const walk = (suite: ListedSuite, path: string[]): void => {
    for (const spec of suite.specs ?? [])
      if (spec.file !== undefined && grep.test([...path, spec.title ?? '', ...(spec.tags ?? []).map((t) => `@${t}`)].join(' ')))
        files.add(spec.file);
    for (const child of suite.suites ?? []) walk(child, [...path, child.title ?? '']);
  };
  for (const s of listing.suites ?? []) walk(s, [s.title ?? '']);
  return [...files].sort();
}
