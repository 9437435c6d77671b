// The requirement matrix: test results in, one status per catalog requirement out. Pure (STYLE: the status lattice).
//
// Tests:        fail > error > skip > pass (worst wins). `error` = the kit broke; it never counts against the target.
// Requirement:  a failure is then weighed by level and strictness (P9): MUST fails (in lenient, a MUST with errata
//               warns), SHOULD warns (fails in strict), MAY only ever warns. `error` stays `error`: the requirement
//               was not judged, so it is neither a pass nor a finding. With no test: `untestable` (catalog reason),
//               `skip` for a client's duty (the device persona judges it), else `not-covered` (a gap, never a pass).
//               A requirement of another edition (P10) is `skip` with the editions named, and never blocks a verdict.
import { appliesTo, isMandatory, type Level, type Observer, type Requirement } from '../spec/requirements.ts';
import { SEED_PROFILE, type Edition, type Strictness } from '../spec/profile.ts';
import type { Exchange } from '../simulators/transport/types.ts';
import type { Failure } from './failure.ts';
import { compareSections } from './sections.ts';
import { PERSONA, PERSONA_OBSERVERS, type Persona } from '../fixtures/run-context.ts';

/** `warn`: the test passed but noted a departure its errata make a warning at this strictness (warnUnlessStrict). */
export type TestStatus = 'pass' | 'warn' | 'fail' | 'skip' | 'error';
export type RequirementStatus = 'pass' | 'fail' | 'warn' | 'skip' | 'error' | 'untestable' | 'not-covered';
export type Verdict = 'conformant' | 'not-conformant' | 'incomplete';

export const TEST_STATUSES: readonly TestStatus[] = ['pass', 'warn', 'fail', 'skip', 'error'];
export const REQUIREMENT_STATUSES: readonly RequirementStatus[] = ['fail', 'error', 'warn', 'skip', 'not-covered', 'untestable', 'pass'];

/** One test as the report keeps it. */
export interface TestEntry {
  title: string;
  file: string;
  line: number;
  status: TestStatus;
  durationMs: number;
  error?: Failure;
  /** Why it was skipped (Playwright's skip annotation, e.g. "needs hook retireClient"). */
  reason?: string;
}

/** A test with the requirement ids it checks and the exchanges it attached. */
/** The annotation expectEach (fixtures/expect-each.ts) writes for each requirement whose own check held. */
export const HELD_ANNOTATION = 'req-held';

export interface TestRecord extends TestEntry {
  requirementIds: string[];
  evidence?: Exchange[];
  /**
   * Of a failed test judging several requirements (expectEach): the ids whose own check held. Each passes by this
   * test, so a client that breaks one rule fails exactly that requirement.
   */
  held?: string[];
}

export interface RequirementResult {
  id: string;
  section: string;
  level: Level;
  observer: Observer;
  text: string;
  status: RequirementStatus;
  tests: TestEntry[];
  /** Why the status is what it is, whenever it is not a plain pass or fail. */
  reason?: string;
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

export type Counts = Record<'pass' | 'fail' | 'warn' | 'skip' | 'error' | 'untestable' | 'notCovered', number>;

export interface Summary extends Counts {
  requirements: number;
  /** Requirements of level MUST or MUST NOT whose status is fail: `wfmck run` exits 1 iff this is above 0. */
  mustFailed: number;
  verdict: Verdict;
  byLevel: Record<Level, Counts & { requirements: number }>;
}

export const MAX_EVIDENCE = 20;
export const CLIENT_REASON = "a device client's duty: judged by the device persona, not by a run against the services";
export const NOT_COVERED_REASON = 'no test in this run checks it';
/** The run's edition until a run passes its own (P10: `seed` is the default). */
export const RUN_EDITION: Edition = SEED_PROFILE.edition;

/** Why a requirement another persona judges is skipped in this run. */
export function otherPersonaReason(observer: Observer, persona: Persona): string {
  if (observer === 'client') return CLIENT_REASON;
  const judge = (Object.keys(PERSONA_OBSERVERS) as Persona[]).find((p) => p !== 'wfm' && PERSONA_OBSERVERS[p].includes(observer)) ?? 'wfm';
  return `judged by the ${observer === 'wfm' ? 'wfm' : `${judge} (or wfm)`} persona; this run is persona ${persona}`;
}

export function otherEditionReason(editions: readonly Edition[], run: Edition): string {
  return `applies to edition ${editions.join(', ')}; this run is edition ${run}`;
}

// A warning is a finding, so it outranks a skip; an error or a failure outranks both.
const TEST_RANK: Record<TestStatus, number> = { pass: 0, skip: 1, warn: 2, error: 3, fail: 4 };

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

function reasonFor(req: Requirement, status: RequirementStatus, tests: readonly TestEntry[], strictness: Strictness, filtered: boolean): string | undefined {
  switch (status) {
    case 'untestable':
      return req.reason ?? (req.unseen && `not visible on the wire: ${req.unseen}`);
    case 'not-covered':
      return filtered ? `${NOT_COVERED_REASON} (tests were filtered by --grep or --shard)` : NOT_COVERED_REASON;
    case 'skip':
      return unique(tests.filter((t) => t.status === 'skip').map((t) => t.reason ?? 'skipped')).join('; ');
    case 'error':
      return 'the kit could not judge it (kit error, not a finding against the target)';
    case 'warn':
      if (tests.some((t) => t.status === 'warn')) return unique(tests.filter((t) => t.status === 'warn').map((t) => t.reason ?? 'warned')).join('; ');
      if (req.level === 'MAY') return 'MAY: an optional behaviour never fails a run';
      if (req.level === 'SHOULD' || req.level === 'SHOULD NOT') return `${req.level}: warns in ${strictness} strictness, fails only in strict`;
      return 'known ambiguity (errata): lenient strictness does not fail a run on it';
    default:
      return undefined;
  }
}

/** One result per catalog requirement, in spec order; tests naming ids outside the catalog are the caller's problem. */
export function buildMatrix(
  catalog: readonly Requirement[], records: readonly TestRecord[], strictness: Strictness, filtered = false, edition: Edition = RUN_EDITION, persona: Persona = PERSONA,
): RequirementResult[] {
  const judged = PERSONA_OBSERVERS[persona];
  const byId = new Map<string, TestRecord[]>();
  for (const r of records) for (const id of unique(r.requirementIds)) byId.set(id, [...(byId.get(id) ?? []), r]);
  const ordered = catalog.map((req, index) => ({ req, index })).sort((a, b) => compareSections(a.req.section, b.req.section) || a.index - b.index);
  return ordered.map(({ req }) => {
    const tests = (byId.get(req.id) ?? []).map((t) => (t.held?.includes(req.id) ? heldBy(t) : t));
    const inEdition = appliesTo(req, edition);
    const ours = req.observer === 'untestable' || judged.includes(req.observer);
    // A client duty the device persona sees in one edition only: in the other its checks skip, and it is untestable there.
    const blind = req.unseenIn?.[edition];
    const status = !(inEdition && ours) ? 'skip' : blind !== undefined && tests.every((t) => t.status === 'skip') ? 'untestable' : requirementStatus(req, tests.map((t) => t.status), strictness);
    const reason = !inEdition ? otherEditionReason(req.editions, edition) : !ours ? otherPersonaReason(req.observer, persona)
      : status === 'untestable' && blind !== undefined && req.unseen === undefined ? `not visible on the wire in edition ${edition}: ${blind}` : reasonFor(req, status, tests, strictness, filtered);
    const evidence = status === 'pass' ? [] : tests.filter((t) => t.status === 'fail' || t.status === 'error').flatMap((t) => t.evidence ?? []).slice(0, MAX_EVIDENCE);
    return {
      id: req.id,
      section: req.section,
      level: req.level,
      observer: req.observer,
      text: req.text,
      status,
      tests: tests.map(entryOf),
      ...(reason !== undefined && { reason }),
      ...(req.errata !== undefined && { errata: req.errata }),
      ...(evidence.length > 0 && { evidence }),
      ...(!inEdition && { otherEdition: true as const }),
      ...(inEdition && !ours && { otherPersona: true as const }),
    };
  });
}

function entryOf(r: TestRecord): TestEntry {
  const { requirementIds: _ids, evidence: _evidence, held: _held, ...entry } = r;
  return entry;
}

/** A failed test seen from a requirement whose own check in it held: a pass, without the other checks' failure. */
function heldBy(r: TestRecord): TestRecord {
  const { error: _error, evidence: _evidence, ...rest } = r;
  return { ...rest, status: 'pass' };
}

function emptyCounts(): Counts {
  return { pass: 0, fail: 0, warn: 0, skip: 0, error: 0, untestable: 0, notCovered: 0 };
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
 * (its persona's observers) is skipped, not covered or hit a kit error; one the catalog explains (untestable, or
 * unseen by the device persona) never blocks. A lenient warn on a known
 * ambiguity does not block: the strictness is printed beside the verdict.
 */
export function verdictOf(results: readonly RequirementResult[], strictness: Strictness): Verdict {
  if (results.some((r) => r.status === 'fail')) return 'not-conformant';
  const open = results.some(
    (r) => !r.otherEdition && !r.otherPersona && r.status !== 'untestable' && blockingLevel(r.level, strictness) && r.status !== 'pass' && r.status !== 'warn',
  );
  return open ? 'incomplete' : 'conformant';
}

export function summarize(results: readonly RequirementResult[], strictness: Strictness): Summary {
  const total = emptyCounts();
  const byLevel = Object.fromEntries(
    (['MUST', 'MUST NOT', 'SHOULD', 'SHOULD NOT', 'MAY'] as const).map((l) => [l, { requirements: 0, ...emptyCounts() }]),
  ) as Summary['byLevel'];
  for (const r of results) {
    total[countKey(r.status)] += 1;
    byLevel[r.level][countKey(r.status)] += 1;
    byLevel[r.level].requirements += 1;
  }
  const mustFailed = results.filter((r) => isMandatory(r.level) && r.status === 'fail').length;
  return { requirements: results.length, ...total, mustFailed, verdict: verdictOf(results, strictness), byLevel };
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
