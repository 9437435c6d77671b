// The status lattice, exhaustively: every level x observer x strictness x errata x set of test outcomes.
import { fcOptions } from '../support/fc.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LEVELS, OBSERVERS, loadRequirements, type Level, type Observer, type Requirement } from '../../spec/requirements.ts';
import type { Strictness } from '../../spec/profile.ts';
import {
  CLIENT_REASON,
  MAX_EVIDENCE,
  NOT_COVERED_REASON,
  RUN_EDITION,
  TEST_STATUSES,
  buildMatrix,
  otherEditionReason,
  requirementStatus,
  summarize,
  verdictOf,
  worstTestStatus,
  type RequirementStatus,
  type TestRecord,
  type TestStatus,
} from '../../reports/matrix.ts';
import { exchange } from './synthetic.ts';

const STRICTNESS: Strictness[] = ['strict', 'default', 'lenient'];
const fcOpts = fcOptions(300);

function req(id: string, level: Level, observer: Observer, extra: Partial<Requirement> = {}): Requirement {
  return {
    id,
    section: '4.1',
    level,
    text: `${id} text`,
    observer,
    source: 'interfaces',
    editions: ['seed', 'miaf'],
    ...(observer === 'untestable' && { reason: 'cannot be seen' }),
    ...extra,
  };
}

function rec(ids: string[], status: TestStatus, extra: Partial<TestRecord> = {}): TestRecord {
  return { requirementIds: ids, title: `${ids.join(' ')} t`, file: 'suites/x.spec.ts', line: 1, status, durationMs: 1, ...extra };
}

/** Every subset of the six test outcomes, as a list (each present once). */
function subsets(): TestStatus[][] {
  return Array.from({ length: 2 ** TEST_STATUSES.length }, (_, mask) => TEST_STATUSES.filter((_, i) => mask & (1 << i)));
}

// The oracle, written as the decision table of the brief rather than as the module's rank arithmetic.
function expected(level: Level, observer: Observer, strictness: Strictness, errata: boolean, tests: TestStatus[]): RequirementStatus {
  if (tests.length === 0) return observer === 'untestable' ? 'untestable' : 'not-covered'; // another persona's requirement never gets here (buildMatrix)
  if (tests.includes('fail')) {
    if (level === 'MAY') return 'warn';
    if (level === 'SHOULD' || level === 'SHOULD NOT') return strictness === 'strict' ? 'fail' : 'warn';
    return strictness === 'lenient' && errata ? 'warn' : 'fail';
  }
  if (tests.includes('error')) return 'error';
  if (tests.includes('warn')) return 'warn';
  if (tests.includes('blocked')) return 'blocked';
  if (tests.includes('skip')) return 'skip';
  return 'pass';
}

test('worstTestStatus: fail > error > warn > blocked > skip > pass, undefined for no tests', () => {
  assert.equal(worstTestStatus([]), undefined);
  const order: TestStatus[] = ['pass', 'skip', 'blocked', 'warn', 'error', 'fail'];
  for (const [i, a] of order.entries()) {
    for (const [j, b] of order.entries()) assert.equal(worstTestStatus([a, b]), order[Math.max(i, j)], `${a} vs ${b}`);
  }
});

test('requirementStatus agrees with the decision table on every combination (5 x 5 x 3 x 2 x 64)', () => {
  let cases = 0;
  for (const level of LEVELS)
    for (const observer of OBSERVERS)
      for (const strictness of STRICTNESS)
        for (const errata of [false, true]) {
          for (const tests of subsets()) {
            const r = { level, observer, ...(errata && { errata: 'ambiguous' }) };
            assert.equal(
              requirementStatus(r, tests, strictness),
              expected(level, observer, strictness, errata, tests),
              JSON.stringify({ level, observer, strictness, errata, tests }),
            );
            cases += 1;
          }
        }
  assert.equal(cases, 9600);
});

test('a MAY never fails, at any strictness, whatever its tests', () => {
  for (const strictness of STRICTNESS)
    for (const tests of subsets()) {
      assert.notEqual(requirementStatus({ level: 'MAY', observer: 'wfm', errata: 'x' }, tests, strictness), 'fail');
      assert.notEqual(requirementStatus({ level: 'MAY', observer: 'wfm' }, tests, strictness), 'fail');
    }
});

test('strictness (P9): SHOULD warns in default and lenient, fails in strict; errata soften a MUST only in lenient', () => {
  const should = { level: 'SHOULD' as const, observer: 'wfm' as const };
  assert.deepEqual(
    STRICTNESS.map((s) => requirementStatus(should, ['fail'], s)),
    ['fail', 'warn', 'warn'],
  );
  const mustErrata = { level: 'MUST' as const, observer: 'wfm' as const, errata: '400 or 422' };
  assert.deepEqual(
    STRICTNESS.map((s) => requirementStatus(mustErrata, ['fail', 'pass'], s)),
    ['fail', 'fail', 'warn'],
  );
  const must = { level: 'MUST NOT' as const, observer: 'registry' as const };
  assert.deepEqual(
    STRICTNESS.map((s) => requirementStatus(must, ['fail'], s)),
    ['fail', 'fail', 'fail'],
  );
});

test('no test: untestable with the catalog reason, client duty skipped with its reason, else not-covered (never pass)', () => {
  const catalog = [
    req('A-UNT', 'MUST', 'untestable'),
    req('A-CLI', 'MUST', 'client'),
    req('A-WFM', 'MUST', 'wfm'),
    req('A-REG', 'MAY', 'registry'),
  ];
  const m = buildMatrix(catalog, [], 'default');
  assert.deepEqual(
    m.map((r) => [r.status, r.reason]),
    [
      ['untestable', 'cannot be seen'],
      ['skip', CLIENT_REASON],
      ['not-covered', NOT_COVERED_REASON],
      ['not-covered', NOT_COVERED_REASON],
    ],
  );
  assert.match(buildMatrix(catalog, [], 'default', true)[2]!.reason!, /filtered by --grep/);
});

test('skip reasons name the missing hook; a kit error is its own status and not a failure', () => {
  const catalog = [req('B-ONE', 'MUST', 'wfm'), req('B-TWO', 'MUST', 'wfm')];
  const m = buildMatrix(
    catalog,
    [
      rec(['B-ONE'], 'pass'),
      rec(['B-ONE'], 'skip', { reason: 'needs hook retireClient' }),
      rec(['B-ONE'], 'skip', { reason: 'needs hook retireClient' }),
      rec(['B-TWO'], 'error', { error: { message: 'WFMCK_E_INTERNAL boom' }, evidence: [exchange()] }),
      rec(['B-TWO'], 'pass'),
    ],
    'default',
  );
  assert.equal(m[0]!.status, 'skip');
  assert.equal(m[0]!.reason, 'needs hook retireClient');
  assert.equal(m[1]!.status, 'error');
  assert.equal(m[1]!.evidence?.length, 1, 'a kit error keeps its evidence for whoever debugs the kit');
  const s = summarize(m, 'default');
  assert.equal(s.mustFailed, 0);
  assert.equal(s.error, 1);
  assert.equal(s.verdict, 'no-verdict', 'a kit error gives no verdict (exit 2), never incomplete or a failure');
});

test('buildMatrix: spec order, one entry per catalog requirement, a multi-id test under each id, evidence of failures only, capped', () => {
  const catalog = [
    req('C-P', 'MUST', 'wfm', { section: 'P4' }),
    req('C-9', 'MUST', 'wfm', { section: '9' }),
    req('C-21', 'MUST', 'wfm', { section: '2.1' }),
    req('C-10', 'MUST', 'wfm', { section: '10' }),
    req('C-211', 'SHOULD', 'wfm', { section: '2.1.1' }),
    req('C-1', 'MUST', 'wfm', { section: '1' }),
  ];
  const many = Array.from({ length: 30 }, (_, i) => exchange({ id: `x${i}` }));
  const m = buildMatrix(
    catalog,
    [
      rec(['C-21', 'C-211'], 'fail', { error: { message: 'no' }, evidence: many }),
      rec(['C-21', 'C-21'], 'pass', { evidence: [exchange()] }),
      rec(['C-9'], 'pass', { evidence: [exchange()] }),
    ],
    'default',
  );
  assert.deepEqual(
    m.map((r) => r.section),
    ['1', '2.1', '2.1.1', '9', '10', 'P4'],
  );
  const c21 = m[1]!;
  assert.equal(c21.status, 'fail');
  assert.equal(c21.tests.length, 2, 'a test naming an id twice counts once');
  assert.equal(c21.evidence?.length, MAX_EVIDENCE);
  assert.equal(m[2]!.status, 'warn');
  assert.match(m[2]!.reason!, /SHOULD: warns in default/);
  assert.equal(m[3]!.evidence, undefined, 'a pass keeps no evidence');
  assert.equal('requirementIds' in c21.tests[0]!, false);
  assert.equal('evidence' in c21.tests[0]!, false);
});

test('verdict: conformant only when every judged blocking requirement passes; incomplete on skips and gaps', () => {
  const v = (catalog: Requirement[], records: TestRecord[], s: Strictness = 'default') => verdictOf(buildMatrix(catalog, records, s), s);
  const must = req('D-M', 'MUST', 'wfm');
  const client = req('D-C', 'MUST', 'client');
  const should = req('D-S', 'SHOULD', 'identity');
  const untestable = req('D-U', 'MUST', 'untestable');
  assert.equal(
    v([must, client, untestable], [rec(['D-M'], 'pass')]),
    'conformant',
    'client duties and untestables do not block a service run',
  );
  assert.equal(v([must], []), 'incomplete', 'a MUST not covered');
  assert.equal(v([must], [rec(['D-M'], 'skip', { reason: 'needs hook retireClient' })]), 'incomplete');
  assert.equal(v([must], [rec(['D-M'], 'fail')]), 'not-conformant');
  assert.equal(v([must, should], [rec(['D-M'], 'pass')]), 'conformant', 'a SHOULD gap does not block in default');
  assert.equal(v([must, should], [rec(['D-M'], 'pass')], 'strict'), 'incomplete', 'but does in strict');
  assert.equal(v([must, should], [rec(['D-M'], 'pass'), rec(['D-S'], 'fail')]), 'conformant', 'a SHOULD failure warns in default');
  assert.equal(v([must, should], [rec(['D-M'], 'pass'), rec(['D-S'], 'fail')], 'strict'), 'not-conformant');
  const ambiguous = req('D-A', 'MUST', 'wfm', { errata: '400 or 422' });
  assert.equal(v([ambiguous], [rec(['D-A'], 'fail')], 'lenient'), 'conformant', 'lenient: a known ambiguity warns');
  assert.equal(v([ambiguous], [rec(['D-A'], 'fail')], 'default'), 'not-conformant');
  // A kit error (a hook that failed, say) outranks a failure beside it: no verdict either way, as the exit code 2 says.
  const other = req('D-O', 'MUST', 'wfm');
  assert.equal(v([must, other], [rec(['D-M'], 'fail'), rec(['D-O'], 'error', { errorCode: 'WFMCK_E_HOOK' })]), 'no-verdict');
  assert.equal(v([must], [rec(['D-M'], 'error', { errorCode: 'WFMCK_E_HOOK' })]), 'no-verdict');
});

test('summary: mustFailed is exactly the MUST and MUST NOT requirements that fail; strict SHOULD failures are not in it', () => {
  const catalog = [
    req('E-1', 'MUST', 'wfm'),
    req('E-2', 'MUST NOT', 'registry'),
    req('E-3', 'SHOULD', 'wfm'),
    req('E-4', 'MAY', 'wfm'),
    req('E-5', 'MUST', 'wfm'),
  ];
  const records = ['E-1', 'E-2', 'E-3', 'E-4'].map((id) => rec([id], 'fail'));
  const s = summarize(buildMatrix(catalog, [...records, rec(['E-5'], 'error')], 'strict'), 'strict');
  assert.equal(s.mustFailed, 2);
  assert.equal(s.fail, 3);
  assert.equal(s.warn, 1);
  assert.equal(s.error, 1);
  assert.equal(s.byLevel.MUST.fail, 1);
  assert.equal(s.byLevel['MUST NOT'].fail, 1);
});

test('property: counts add up, mustFailed is exact, a conformant verdict has no failing MUST', () => {
  const catalog = loadRequirements();
  const arbRecords = fc.array(
    fc.record({
      ids: fc.subarray(
        catalog.map((r) => r.id),
        { minLength: 1, maxLength: 3 },
      ),
      status: fc.constantFrom(...TEST_STATUSES),
    }),
    { maxLength: 200 },
  );
  fc.assert(
    fc.property(arbRecords, fc.constantFrom(...STRICTNESS), (drawn, strictness) => {
      const m = buildMatrix(
        catalog,
        drawn.map((d) => rec(d.ids, d.status)),
        strictness,
      );
      const s = summarize(m, strictness);
      const sum = s.pass + s.fail + s.warn + s.blocked + s.skip + s.error + s.untestable + s.notCovered;
      assert.equal(sum, catalog.length);
      assert.equal(s.requirements, catalog.length);
      assert.equal(s.mustFailed, m.filter((r) => (r.level === 'MUST' || r.level === 'MUST NOT') && r.status === 'fail').length);
      for (const l of LEVELS) assert.equal(s.byLevel[l].requirements, catalog.filter((r) => r.level === l).length);
      if (s.verdict === 'conformant') assert.equal(s.fail, 0);
      assert.ok(
        m.every((r) => r.status !== 'pass' || r.tests.length > 0),
        'never a pass without a test',
      );
    }),
    fcOpts,
  );
});

test('P10 editions: a requirement of another edition is skip with the editions named, never a gap, never blocking', () => {
  const catalog = [
    req('BOTH-1', 'MUST', 'wfm'),
    req('MIAF-1', 'MUST', 'wfm', { editions: ['miaf'] }),
    req('SEED-1', 'MUST', 'wfm', { editions: ['seed'] }),
  ];
  const records = [rec(['BOTH-1'], 'pass'), rec(['SEED-1'], 'pass')];
  const seedRun = buildMatrix(catalog, records, 'default');
  const byId = (m: typeof seedRun, id: string) => m.find((r) => r.id === id)!;
  assert.equal(RUN_EDITION, 'seed', 'until a run passes its edition, it is seed');
  assert.deepEqual(
    { status: byId(seedRun, 'MIAF-1').status, reason: byId(seedRun, 'MIAF-1').reason, other: byId(seedRun, 'MIAF-1').otherEdition },
    { status: 'skip', reason: 'applies to edition miaf; this run is edition seed', other: true },
  );
  assert.equal(byId(seedRun, 'SEED-1').status, 'pass');
  assert.equal(byId(seedRun, 'SEED-1').otherEdition, undefined);
  assert.equal(verdictOf(seedRun, 'default'), 'conformant');

  const miafRun = buildMatrix(catalog, [rec(['BOTH-1'], 'pass'), rec(['MIAF-1'], 'fail')], 'default', false, 'miaf');
  assert.equal(byId(miafRun, 'SEED-1').reason, otherEditionReason(['seed'], 'miaf'));
  assert.equal(byId(miafRun, 'SEED-1').status, 'skip');
  assert.equal(byId(miafRun, 'MIAF-1').status, 'fail');
  assert.equal(verdictOf(miafRun, 'default'), 'not-conformant');
});

test('P10 editions: in the catalog, the seed run skips exactly the miaf-only entries and judges every seed one as before', () => {
  const catalog = loadRequirements();
  const m = buildMatrix(catalog, [], 'default');
  const skipped = m.filter((r) => r.otherEdition).map((r) => r.id);
  assert.deepEqual(
    [...skipped].sort(),
    catalog
      .filter((r) => !r.editions.includes('seed'))
      .map((r) => r.id)
      .sort(),
  );
  assert.ok(skipped.length >= 20, `only ${skipped.length} miaf-only entries`);
  for (const r of m.filter((x) => !x.otherEdition)) assert.notEqual(r.reason?.startsWith('applies to edition'), true, r.id);
});

test("personas: a run judges its persona's observers; the others are skipped with the persona that judges them, never gaps", () => {
  const catalog = [
    req('W-1', 'MUST', 'wfm'),
    req('I-1', 'MUST', 'identity'),
    req('C-1', 'MUST', 'client'),
    req('U-1', 'MUST', 'untestable', { reason: 'cannot be seen' }),
  ];
  const identityRun = buildMatrix(catalog, [rec(['I-1'], 'pass')], 'default', false, 'seed', 'identity');
  const byId = (m: typeof identityRun, id: string) => m.find((r) => r.id === id)!;
  assert.deepEqual([byId(identityRun, 'W-1').status, byId(identityRun, 'W-1').otherPersona], ['skip', true]);
  assert.match(byId(identityRun, 'W-1').reason!, /judged by the wfm persona; this run is persona identity/);
  assert.equal(byId(identityRun, 'C-1').reason, CLIENT_REASON);
  assert.equal(verdictOf(identityRun, 'default'), 'conformant', 'what another persona judges never blocks');
  const deviceRun = buildMatrix(catalog, [], 'default', false, 'seed', 'device');
  assert.equal(byId(deviceRun, 'C-1').status, 'not-covered', 'the device persona judges client duties: untested is a gap');
  assert.equal(verdictOf(deviceRun, 'default'), 'incomplete');
  assert.equal(byId(deviceRun, 'U-1').status, 'untestable');
});

test('held: a failed test passes the requirements whose own check held in it (expectEach), and fails only the others', () => {
  const catalog = [req('H-1', 'MUST', 'client'), req('H-2', 'MUST', 'client')];
  const failed = rec(['H-1', 'H-2'], 'fail', { held: ['H-1'], error: { message: 'H-2: a finding' } as TestRecord['error'] });
  const m = buildMatrix(catalog, [failed], 'default', false, 'seed', 'device');
  assert.deepEqual(
    m.map((r) => [r.id, r.status]),
    [
      ['H-1', 'pass'],
      ['H-2', 'fail'],
    ],
  );
  assert.equal(m[0]!.tests[0]!.status, 'pass');
  assert.equal(m[0]!.tests[0]!.error, undefined, "the other check's failure is not shown under the one that held");
  assert.equal(m[1]!.tests[0]!.error?.message, 'H-2: a finding');
});

test('unseen: a client duty the device persona cannot see is untestable there with its reason, never a gap; a test still judges it', () => {
  const seen = req('C-1', 'MUST', 'client');
  const unseen = req('C-2', 'MUST', 'client', { unseen: 'happens inside the device' });
  const byId = (m: ReturnType<typeof buildMatrix>, id: string) => m.find((r) => r.id === id)!;
  const deviceRun = buildMatrix([seen, unseen], [rec(['C-1'], 'pass')], 'default', false, 'seed', 'device');
  assert.deepEqual(
    [byId(deviceRun, 'C-2').status, byId(deviceRun, 'C-2').reason],
    ['untestable', 'not visible on the wire: happens inside the device'],
  );
  assert.equal(verdictOf(deviceRun, 'default'), 'conformant', 'an explained blind spot does not block');
  assert.equal(
    verdictOf(buildMatrix([seen, unseen], [], 'default', false, 'seed', 'device'), 'default'),
    'incomplete',
    'the untested seen duty still does',
  );
  assert.equal(
    byId(buildMatrix([unseen], [rec(['C-2'], 'fail')], 'default', false, 'seed', 'device'), 'C-2').status,
    'fail',
    'a test that names it judges it',
  );
  assert.equal(
    byId(buildMatrix([unseen], [], 'default', false, 'seed', 'wfm'), 'C-2').status,
    'skip',
    'another persona skips it as a client duty',
  );
});

test('unseenIn: blind in one edition, a skipped client duty is untestable there with its reason; judged in the other', () => {
  const partial = req('C-3', 'MUST', 'client', { unseenIn: { seed: 'no SVID on the wire' } });
  const skipped = [rec(['C-3'], 'skip')];
  const seedRun = buildMatrix([partial], skipped, 'default', false, 'seed', 'device');
  assert.deepEqual(
    [seedRun[0]!.status, seedRun[0]!.reason],
    ['untestable', 'not visible on the wire in edition seed: no SVID on the wire'],
  );
  assert.equal(verdictOf(seedRun, 'default'), 'conformant', 'an explained blind spot does not block');
  assert.equal(
    buildMatrix([partial], skipped, 'default', false, 'miaf', 'device')[0]!.status,
    'skip',
    'the edition that sees it still counts a skip',
  );
  assert.equal(
    buildMatrix([partial], [rec(['C-3'], 'fail')], 'default', false, 'seed', 'device')[0]!.status,
    'fail',
    'a test that judges it in seed anyway is heard',
  );
});
