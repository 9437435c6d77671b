// The requirement matrix: test results in, one status per catalog requirement out. Pure (STYLE: the status lattice).
//
// Tests:        fail > error > warn > blocked > skip > pass (worst wins). `error` = the kit broke; it never counts against
//               the target. `blocked` = a precondition broke, on another requirement's check (named): not a finding here.
// Requirement:  a failure is then weighed by level and strictness (P9): MUST fails (in lenient, a MUST with errata
//               warns), SHOULD warns (fails in strict), MAY only ever warns. `error` stays `error`: the requirement
//               was not judged, so it is neither a pass nor a finding; nor is `blocked`, whose cause is the finding. With no test: `untestable` (catalog reason),
//               `skip` for a client's duty (the device persona judges it), else `not-covered` (a gap, never a pass).
//               A requirement of another edition (P10) is `skip` with the editions named, and never blocks a verdict.
import { appliesTo, isMandatory, type Level, type Observer, type Requirement } from '../spec/requirements.ts';
import { SEED_PROFILE, type Edition, type Strictness } from '../spec/profile.ts';
import type { Exchange } from '../protocol/exchange.ts';
import type { Failure } from './failure.ts';
import { compareSections } from './sections.ts';
import { PERSONA, observersOf, personaOf, type Persona } from '../run/contract/personas.ts';
import { SKIP_CAUSES, type KitErrorCode, type SkipCause } from '../run/contract/outcomes.ts';

/** `warn`: the test passed but noted a departure its errata make a warning at this strictness (warnUnlessStrict). */
export type TestStatus = 'pass' | 'warn' | 'fail' | 'blocked' | 'skip' | 'error';
export type RequirementStatus = 'pass' | 'fail' | 'warn' | 'blocked' | 'skip' | 'error' | 'untestable' | 'not-covered';
/** `no-verdict`: the kit (a hook, the configuration, the run itself) broke somewhere, so no verdict is given: exit 2. */
export type Verdict = 'conformant' | 'not-conformant' | 'incomplete' | 'no-verdict';

export const TEST_STATUSES: readonly TestStatus[] = ['pass', 'warn', 'fail', 'blocked', 'skip', 'error'];
export const REQUIREMENT_STATUSES: readonly RequirementStatus[] = [
  'fail',
  'error',
  'blocked',
  'warn',
  'skip',
  'not-covered',
  'untestable',
  'pass',
];

/** One test as the report keeps it. */
export interface TestEntry {
  title: string;
  file: string;
  line: number;
  status: TestStatus;
  durationMs: number;
  error?: Failure;
  /** One line: why it did not pass (a failure's Expected/Received, a skip's reason, a block's cause, a kit error's code). */
  reason?: string;
  /** blocked: the requirement whose check broke this test's precondition. */
  blockedBy?: string;
  /** skip: why, typed. */
  skipCause?: SkipCause;
  /** error: the kit error's code. */
  errorCode?: KitErrorCode;
  /** error WFMCK_E_HOOK: the hook that failed. */
  hook?: string;
  /**
   * fail or blocked: the exchange the check stopped at (the last one it made), and what the check expected of it when
   * the failure says so: the report marks it, coloured by that expectation, not by 2xx.
   */
  brokeAt?: { exchange: string; expected?: string };
}

/** A test with the requirement ids it checks and the exchanges it attached. */

export interface TestRecord extends TestEntry {
  requirementIds: string[];
  evidence?: Exchange[];
  /**
   * Of a failed test judging several requirements (expectEach): the ids whose own check held. Each passes by this
   * test, so a client that breaks one rule fails exactly that requirement.
   */
  held?: string[];
  /**
   * Of a failed test judging several requirements (judgeAs): the ids whose checks the failure cut short, and the id
   * that failed. Each is blocked by this test, never failed with it.
   */
  cutShort?: { ids: string[]; by: string };
}

export interface RequirementResult {
  id: string;
  section: string;
  level: Level;
  observer: Observer;
  text: string;
  status: RequirementStatus;
  tests: TestEntry[];
  /** Why the status is what it is, whenever it is not a plain pass (a failure's one-line reason too). */
  reason?: string;
  /** blocked: the requirements whose failed checks kept this one's tests from judging it. */
  blockedBy?: string[];
  /** skip: why, typed (a test's cause, or the run's: another persona, edition, or an area not claimed). */
  skipCause?: SkipCause;
  errata?: string;
  /** Exchanges of the failing tests, at most MAX_EVIDENCE. */
  evidence?: Exchange[];
  /** The same exchanges as a file of the output folder (evidence/<id>.json), which a signed run lists as a subject. */
  evidenceFile?: string;
  /** The faults of reference/faults/ whose `breaks` names it: each makes its checks fail (issue 5). */
  faults?: FaultProof[];
  /** Checked by tests in this run, yet no fault shows the checks can fail: not trusted (STYLE habit 4). */
  unproven?: true;
  /** Binds only targets of another edition than this run's (P10): skipped, never a gap. */
  otherEdition?: true;
  /** Judged by another persona's run (a device client's duty in a run against the services): skipped, never a gap. */
  otherPersona?: true;
}

export interface FaultProof {
  id: string;
  description: string;
}

export type Counts = Record<'pass' | 'fail' | 'warn' | 'blocked' | 'skip' | 'error' | 'untestable' | 'notCovered', number>;
export type SkipCounts = Record<SkipCause, number>;

export interface Summary extends Counts {
  requirements: number;
  /** Requirements of level MUST or MUST NOT whose status is fail: `wfmck run` exits 1 iff this is above 0. */
  mustFailed: number;
  /** Requirements this run judged (pass, fail or warn): 0 means it showed nothing, and `wfmck run` exits 2. */
  judged: number;
  verdict: Verdict;
  /** The skips by their typed cause. */
  skipCauses: SkipCounts;
  byLevel: Record<Level, Counts & { requirements: number; skipCauses: SkipCounts }>;
}

/** A failed (or otherwise unjudged) requirement and the requirements whose checks it blocked: one bug, one line. */
export interface RootCause {
  id: string;
  level?: Level;
  /** Its own status in this run; `not-run` when no test of this run judged it (a --grep left it out). */
  status: RequirementStatus | 'not-run';
  blocks: string[];
  /** The other requirements whose checks failed on the same exchange (reports/causes.ts): one bug, naming each. */
  alsoFailed?: string[];
}

export const MAX_EVIDENCE = 20;
export const CLIENT_REASON = "a device client's duty: judged by the device persona, not by a run against the services";
export const NOT_COVERED_REASON = 'no test in this run checks it';
/** The run's edition until a run passes its own (P10: `seed` is the default). */
export const RUN_EDITION: Edition = SEED_PROFILE.edition;

/** Why a requirement another persona judges is skipped in this run. */
export function otherPersonaReason(observer: Observer, persona: Persona): string {
  if (observer === 'client') return CLIENT_REASON;
  const judge = personaOf(observer);
  return `judged by the ${observer === 'wfm' ? 'wfm' : `${judge} (or wfm)`} persona; this run is persona ${persona}`;
}

export function otherEditionReason(editions: readonly Edition[], run: Edition): string {
  return `applies to edition ${editions.join(', ')}; this run is edition ${run}`;
}

// A block outranks a skip (the target broke something, elsewhere); a warning is a finding, so it outranks both; an error
// or a failure outranks all.
const TEST_RANK: Record<TestStatus, number> = { pass: 0, skip: 1, blocked: 2, warn: 3, error: 4, fail: 5 };

/** The worst status of a requirement's tests, or undefined when it has none. */
export function worstTestStatus(statuses: readonly TestStatus[]): TestStatus | undefined {
  return statuses.reduce<TestStatus | undefined>((w, s) => (w === undefined || TEST_RANK[s] > TEST_RANK[w] ? s : w), undefined);
}

/** What a failing test means for a requirement of this level at this strictness. */
export function weighFailure(level: Level, hasErrata: boolean, strictness: Strictness): 'fail' | 'warn' {
  if (level === 'MAY') return 'warn';
  if (level === 'SHOULD' || level === 'SHOULD NOT') return strictness === 'strict' ? 'fail' : 'warn';
  return strictness === 'lenient' && hasErrata ? 'warn' : 'fail';
}

type Judged = Pick<Requirement, 'level' | 'observer' | 'errata' | 'unseen'>;

export function requirementStatus(req: Judged, tests: readonly TestStatus[], strictness: Strictness): RequirementStatus {
  const worst = worstTestStatus(tests);
  // A requirement of this run's persona with no test is a gap, unless the catalog says why nobody (untestable) or the
  // device persona (unseen) cannot see it; another persona's never reaches here (buildMatrix).
  if (worst === undefined) return req.observer === 'untestable' || req.unseen !== undefined ? 'untestable' : 'not-covered';
  return worst === 'fail' ? weighFailure(req.level, req.errata !== undefined, strictness) : worst;
}

function reasonFor(
  req: Requirement,
  status: RequirementStatus,
  tests: readonly TestEntry[],
  strictness: Strictness,
  filtered: boolean,
): string | undefined {
  switch (status) {
    case 'untestable':
      return req.reason ?? (req.unseen && `not visible on the wire: ${req.unseen}`);
    case 'not-covered':
      return filtered ? `${NOT_COVERED_REASON} (tests were filtered by --grep or --shard)` : NOT_COVERED_REASON;
    case 'skip':
      return unique(tests.filter((t) => t.status === 'skip').map((t) => t.reason ?? 'skipped')).join('; ');
    case 'blocked':
      return unique(tests.filter((t) => t.status === 'blocked').map((t) => t.reason ?? `blocked by ${t.blockedBy}`)).join('; ');
    case 'error':
      return `kit error, no verdict: ${unique(tests.filter((t) => t.status === 'error').map((t) => t.reason ?? 'the kit broke')).join('; ')}`;
    case 'fail':
      return (
        unique(
          tests
            .filter((t) => t.status === 'fail')
            .map((t) => t.reason)
            .filter((r): r is string => r !== undefined),
        ).join('; ') || undefined
      );
    case 'warn':
      if (tests.some((t) => t.status === 'warn'))
        return unique(tests.filter((t) => t.status === 'warn').map((t) => t.reason ?? 'warned')).join('; ');
      if (req.level === 'MAY') return 'MAY: an optional behaviour never fails a run';
      if (req.level === 'SHOULD' || req.level === 'SHOULD NOT')
        return `${req.level}: warns in ${strictness} strictness, fails only in strict`;
      return 'known ambiguity (errata): lenient strictness does not fail a run on it';
    default:
      return undefined;
  }
}

/** One result per catalog requirement, in spec order; tests naming ids outside the catalog are the caller's problem.
 * `unclaimed` names why a requirement lies outside what the component claims (claims), or undefined. */
export function buildMatrix(
  catalog: readonly Requirement[],
  records: readonly TestRecord[],
  strictness: Strictness,
  filtered = false,
  edition: Edition = RUN_EDITION,
  persona: Persona = PERSONA,
  unclaimed: (req: Requirement) => string | undefined = () => undefined,
): RequirementResult[] {
  const judged = observersOf(persona);
  const byId = new Map<string, TestRecord[]>();
  for (const r of records) for (const id of unique(r.requirementIds)) byId.set(id, [...(byId.get(id) ?? []), r]);
  const ordered = catalog
    .map((req, index) => ({ req, index }))
    .sort((a, b) => compareSections(a.req.section, b.req.section) || a.index - b.index);
  return ordered.map(({ req }) => {
    const tests = (byId.get(req.id) ?? []).map((t) =>
      t.held?.includes(req.id) ? heldBy(t) : t.cutShort?.ids.includes(req.id) ? cutShortBy(t) : t,
    );
    const inEdition = appliesTo(req, edition);
    const ours = req.observer === 'untestable' || judged.includes(req.observer);
    const notClaimed = inEdition && ours ? unclaimed(req) : undefined;
    // A client duty the device persona sees in one edition only: in the other its checks skip, and it is untestable there.
    const blind = req.unseenIn?.[edition];
    const status: RequirementStatus =
      !(inEdition && ours) || notClaimed !== undefined
        ? 'skip'
        : blind !== undefined && tests.every((t) => t.status === 'skip')
          ? 'untestable'
          : requirementStatus(
              req,
              tests.map((t) => t.status),
              strictness,
            );
    const reason = !inEdition
      ? otherEditionReason(req.editions, edition)
      : !ours
        ? otherPersonaReason(req.observer, persona)
        : notClaimed !== undefined
          ? notClaimed
          : status === 'untestable' && blind !== undefined && req.unseen === undefined
            ? `not visible on the wire in edition ${edition}: ${blind}`
            : reasonFor(req, status, tests, strictness, filtered);
    const skipCause: SkipCause | undefined =
      status !== 'skip'
        ? undefined
        : !inEdition
          ? 'other-edition'
          : !ours
            ? 'other-persona'
            : notClaimed !== undefined
              ? 'not-claimed'
              : tests.find((t) => t.status === 'skip' && t.skipCause !== undefined)?.skipCause;
    const blockedBy =
      status === 'blocked' ? unique(tests.flatMap((t) => (t.status === 'blocked' && t.blockedBy !== undefined ? [t.blockedBy] : []))) : [];
    // A block keeps the exchanges that show its cause; an unsupported feature keeps the answer that says so.
    const shows = (t: TestRecord) =>
      t.status === 'fail' || t.status === 'error' || t.status === 'blocked' || (t.status === 'skip' && t.skipCause === 'unsupported');
    const evidence =
      status === 'pass'
        ? []
        : tests
            .filter(shows)
            .flatMap((t) => t.evidence ?? [])
            .slice(0, MAX_EVIDENCE);
    return {
      id: req.id,
      section: req.section,
      level: req.level,
      observer: req.observer,
      text: req.text,
      status,
      tests: tests.map(entryOf),
      ...(reason !== undefined && { reason }),
      ...(blockedBy.length > 0 && { blockedBy }),
      ...(skipCause !== undefined && { skipCause }),
      ...(req.errata !== undefined && { errata: req.errata }),
      ...(evidence.length > 0 && { evidence }),
      ...(!inEdition && { otherEdition: true as const }),
      ...(inEdition && !ours && { otherPersona: true as const }),
    };
  });
}

function entryOf(r: TestRecord): TestEntry {
  const { requirementIds: _ids, evidence: _evidence, held: _held, cutShort: _cutShort, ...entry } = r;
  return entry;
}

/** A failed test seen from a requirement whose check its failure cut short: blocked by the requirement that failed. */
function cutShortBy(r: TestRecord): TestRecord {
  const { error: _error, ...rest } = r;
  const by = r.cutShort!.by;
  return {
    ...rest,
    status: 'blocked',
    blockedBy: by,
    reason: `blocked by ${by}: this test failed on it first${r.reason ? ` (${r.reason})` : ''}`,
  };
}

/** A failed test seen from a requirement whose own check in it held: a pass, without the other checks' failure. */
function heldBy(r: TestRecord): TestRecord {
  const { error: _error, evidence: _evidence, ...rest } = r;
  return { ...rest, status: 'pass' };
}

function emptyCounts(): Counts {
  return { pass: 0, fail: 0, warn: 0, blocked: 0, skip: 0, error: 0, untestable: 0, notCovered: 0 };
}

function emptySkips(): SkipCounts {
  return Object.fromEntries(SKIP_CAUSES.map((c) => [c, 0])) as SkipCounts;
}

function countKey(status: RequirementStatus): keyof Counts {
  return status === 'not-covered' ? 'notCovered' : status;
}

/** Levels whose non-pass keeps a run from being conformant: MUSTs, and SHOULDs too in strict (P9). */
export function blockingLevel(level: Level, strictness: Strictness): boolean {
  return isMandatory(level) || (strictness === 'strict' && (level === 'SHOULD' || level === 'SHOULD NOT'));
}

/**
 * not-conformant: any requirement fails at this strictness. incomplete: a blocking requirement this run judges
 * (its persona's observers, in what it claims) is blocked, skipped, not covered or hit a kit error; one the catalog explains (untestable, or
 * unseen by the device persona) never blocks. A lenient warn on a known
 * ambiguity does not block: the strictness is printed beside the verdict.
 */
export function verdictOf(results: readonly RequirementResult[], strictness: Strictness): Verdict {
  // A kit error outranks every finding: a run whose own parts broke certifies nothing either way (exit 2).
  if (results.some((r) => r.status === 'error')) return 'no-verdict';
  if (results.some((r) => r.status === 'fail')) return 'not-conformant';
  const open = results.some(
    (r) =>
      !r.otherEdition &&
      !r.otherPersona &&
      r.skipCause !== 'not-claimed' &&
      r.status !== 'untestable' &&
      blockingLevel(r.level, strictness) &&
      r.status !== 'pass' &&
      r.status !== 'warn',
  );
  return open ? 'incomplete' : 'conformant';
}

export function summarize(results: readonly RequirementResult[], strictness: Strictness): Summary {
  const total = emptyCounts();
  const skipCauses = emptySkips();
  const byLevel = Object.fromEntries(
    (['MUST', 'MUST NOT', 'SHOULD', 'SHOULD NOT', 'MAY'] as const).map((l) => [
      l,
      { requirements: 0, ...emptyCounts(), skipCauses: emptySkips() },
    ]),
  ) as Summary['byLevel'];
  for (const r of results) {
    total[countKey(r.status)] += 1;
    byLevel[r.level][countKey(r.status)] += 1;
    byLevel[r.level].requirements += 1;
    if (r.status === 'skip' && r.skipCause !== undefined) {
      skipCauses[r.skipCause] += 1;
      byLevel[r.level].skipCauses[r.skipCause] += 1;
    }
  }
  const mustFailed = results.filter((r) => isMandatory(r.level) && r.status === 'fail').length;
  const judged = total.pass + total.fail + total.warn;
  return { requirements: results.length, ...total, mustFailed, judged, verdict: verdictOf(results, strictness), skipCauses, byLevel };
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
