// spec/coverage.txt is the coverage of the suites as they are: regenerated from Playwright's listing it is unchanged,
// and a check added without regenerating it is reported line by line. The text itself: one line per requirement.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coverageOf, staleReport } from '../../cli/coverage.ts';
import type { PlaywrightListing } from '../../faults/harness/checked.ts';
import { suiteListing } from '../../faults/harness/listing.ts';
import { COVERAGE_FILE, coverageDiff, coverageText } from '../../reports/coverage.ts';
import { loadRequirements, type Requirement } from '../../spec/requirements.ts';
import { fault } from '../faults/helpers.ts';

const committed = () => readFileSync(new URL(`../../${COVERAGE_FILE}`, import.meta.url), 'utf8');

let listing: PlaywrightListing | undefined;
before(async () => {
  const out = await mkdtemp(join(tmpdir(), 'wfmck-coverage-test-'));
  const started = Date.now();
  listing = await suiteListing(out);
  process.stdout.write(`# Playwright listing: ${Date.now() - started} ms\n`);
  await rm(out, { recursive: true, force: true });
});

test(
  `${COVERAGE_FILE} is what \`wfmck coverage\` generates from the suites now (else: wfmck coverage --write)`,
  { timeout: 120_000 },
  () => {
    const stale = staleReport(committed(), coverageOf(listing));
    assert.ok(stale === undefined, stale);
  },
);

test('a check added to a suite without regenerating the file is reported: its requirement line, old and new', { timeout: 120_000 }, () => {
  const planted: PlaywrightListing = {
    ...listing,
    suites: [
      ...(listing?.suites ?? []),
      {
        specs: [
          {
            title: 'CAP-PUT-201 a planted check',
            file: 'planted.spec.ts',
            tests: [{ annotations: [{ type: 'req', description: 'CAP-PUT-201' }] }],
          },
        ],
      },
    ],
  };
  const report = staleReport(coverageOf(listing), coverageOf(planted));
  assert.ok(report, 'a new check changes the file');
  const diff = report.split('\n').filter((l) => /^[-+] [A-Z]/.test(l));
  assert.equal(diff.length, 2, report);
  assert.match(diff[0]!, /^- CAP-PUT-201 /);
  assert.match(diff[1]!, /^\+ CAP-PUT-201 .*planted\.spec\.ts: CAP-PUT-201 a planted check/);
  assert.match(report, /is stale \(\d+ line\(s\) differ\); run `wfmck coverage --write`/);
});

const requirement = (id: string, over: Partial<Requirement> = {}): Requirement => ({
  id,
  section: '4.1',
  level: 'MUST',
  text: 't',
  observer: 'wfm',
  source: 'interfaces',
  editions: ['seed', 'miaf'],
  ...over,
});

test('one line per requirement in id order: its tests sorted, its proving faults with edition and persona, none when none', () => {
  const text = coverageText({
    requirements: [
      requirement('B-REQ'),
      requirement('A-REQ', { observer: 'client', editions: ['miaf'] }),
      requirement('C-REQ', { observer: 'untestable', reason: 'r' }),
      requirement('D-REQ'),
    ],
    tests: [
      { file: 'z.spec.ts', title: 'B-REQ last', requirements: ['B-REQ'] },
      { file: 'a.spec.ts', title: 'B-REQ D-REQ first', requirements: ['B-REQ', 'D-REQ'] },
      { file: 'device/a.spec.ts', title: 'A-REQ seen', requirements: ['A-REQ'] },
    ],
    faults: [
      { ...fault('B-REQ:two'), edition: 'miaf' },
      fault('B-REQ'),
      { ...fault('A-REQ', 'client'), edition: 'miaf' },
      // A wfm fault is judged by the wfm persona, where no test of A-REQ runs: it proves nothing.
      fault('B-REQ:also', 'wfm', ['B-REQ', 'A-REQ']),
    ],
  });
  const lines = text.split('\n').filter((l) => l && !l.startsWith('#'));
  assert.deepEqual(lines, [
    'A-REQ §4.1 MUST client miaf-only  tests: device/a.spec.ts: A-REQ seen  faults: A-REQ (miaf, device) (breaks it, no test of its persona: B-REQ:also)',
    'B-REQ §4.1 MUST wfm  tests: a.spec.ts: B-REQ D-REQ first | z.spec.ts: B-REQ last  faults: B-REQ, B-REQ:also, B-REQ:two (miaf)',
    'C-REQ §4.1 MUST untestable  tests: none (untestable)  faults: none',
    'D-REQ §4.1 MUST wfm  tests: a.spec.ts: B-REQ D-REQ first  faults: none',
  ]);
  assert.match(
    text,
    /^# 4 requirements: 3 checked \(1 with no fault to prove them\), 1 not \(0 of them neither untestable nor unseen\)\.$/m,
  );
});

test('the diff groups by requirement: removed then added, header lines under #', () => {
  assert.deepEqual(coverageDiff('# a\nX-1 old\nY-1 same\n', '# b\nX-1 new\nY-1 same\nZ-1 added\n'), [
    '- # a',
    '+ # b',
    '- X-1 old',
    '+ X-1 new',
    '+ Z-1 added',
  ]);
  assert.deepEqual(coverageDiff('X-1 a\n', 'X-1 a\n'), []);
});

test('the committed file has a line for every requirement of the catalog', () => {
  const ids = committed()
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(' ')[0]);
  assert.deepEqual(
    ids,
    loadRequirements()
      .map((r) => r.id)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
  );
});
