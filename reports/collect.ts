// From Playwright's TestCase/TestResult to the report's TestRecord: ids from `req` annotations, the status of the
// last attempt, the typed outcome its helpers noted (run/contract/outcomes.ts), the fixed failure shape and, for every check
// that did not pass, the evidence attachment.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { failureOf, reasonLine, stripAnsi } from './failure.ts';
import { decidingNote, outcomeNotes } from '../run/contract/outcomes.ts';
import { EVIDENCE_ATTACHMENT, parseEvidence } from './evidence.ts';
import { readTimedOut } from './timed-out.ts';
import type { TestRecord, TestStatus } from './matrix.ts';
import { FAILED_ANNOTATION, HELD_ANNOTATION } from '../run/contract/outcomes.ts';

export interface CollectOptions {
  /** Folder file paths are shown relative to (the project root). */
  rootDir: string;
  runSeed: number | undefined;
  /** Every catalog id, so a replay --grep never selects a longer id by prefix. */
  allIds: readonly string[];
  interrupted: boolean;
  /** The run's replay.yaml, which every replay command names (--config) so it tests the same target. */
  replayConfig?: string;
}

type Annotation = { type: string; description?: string };
export type CaseLike = Pick<TestCase, 'title' | 'location' | 'annotations' | 'results'>;
export type ResultLike = Pick<TestResult, 'status' | 'duration' | 'errors' | 'annotations' | 'attachments'>;

/** The record of one test; `problems` collects what the report should say about the kit (unreadable evidence). */
export function recordOf(test: CaseLike, opts: CollectOptions, problems: string[] = []): TestRecord {
  const result = test.results.at(-1) as ResultLike | undefined;
  const annotations: Annotation[] = [...test.annotations, ...(result?.annotations ?? [])];
  const requirementIds = [...new Set(annotations.filter((a) => a.type === 'req' && a.description).map((a) => a.description!))];
  const title = test.title;
  const at = (status: TestStatus) => ({
    requirementIds,
    title,
    file: relative(opts.rootDir, test.location.file) || test.location.file,
    line: test.location.line,
    status,
    durationMs: Math.round(result?.duration ?? 0),
  });
  const interrupted = { skipCause: 'interrupted' as const };
  if (result === undefined)
    return {
      ...at('skip'),
      ...(opts.interrupted ? interrupted : {}),
      reason: opts.interrupted ? 'not run: the run was interrupted' : 'not run',
    };
  // The typed helpers (fixtures/outcome.ts) decide a non-pass: an error outranks a block, a block a typed skip.
  const note = decidingNote(outcomeNotes(annotations));
  // `brokeAt`: the exchange a failure names, the last one unless given.
  const withEvidence = (message?: string, brokeAt?: string) => {
    const evidence = evidenceOf(result, title, problems);
    const last = brokeAt !== undefined ? evidence.find((x) => x.id === brokeAt) : evidence.at(-1);
    const expected = message === undefined ? undefined : expectedOf(message);
    return {
      ...(evidence.length > 0 && { evidence }),
      ...(last !== undefined && message !== undefined && { brokeAt: { exchange: last.id, ...(expected !== undefined && { expected }) } }),
    };
  };
  if (note?.outcome === 'error')
    return {
      ...at('error'),
      errorCode: note.code,
      ...(note.hook !== undefined && { hook: note.hook }),
      reason: `${note.code}: ${firstLine(note.message)}`,
      error: { message: trim(note.message) },
      ...withEvidence(),
    };
  if (note?.outcome === 'blocked' && result.status !== 'passed')
    return {
      ...at('blocked'),
      blockedBy: note.cause,
      reason: `blocked by ${note.cause}: ${firstLine(note.message)}`,
      error: { message: trim(note.message) },
      ...withEvidence(note.message),
    };
  switch (result.status) {
    case 'passed': {
      // A departure the errata make a warning (warnUnlessStrict) must show in the matrix, never as a plain pass.
      const warnings = annotations.filter((a) => a.type === 'warning' && a.description).map((a) => stripAnsi(a.description!));
      return warnings.length ? { ...at('warn'), reason: [...new Set(warnings)].join('; ') } : at('pass');
    }
    case 'skipped': {
      const cause = note?.outcome === 'skip' ? note.cause : undefined;
      if (cause === undefined)
        problems.push(
          `test "${title}" (${at('skip').file}:${test.location.line}) was skipped without a typed cause (fixtures/outcome.ts skipIf)`,
        );
      return {
        ...at('skip'),
        ...(cause !== undefined && { skipCause: cause }),
        reason: skipReason(annotations),
        ...(cause === 'unsupported' ? withEvidence() : {}),
      };
    }
    case 'interrupted':
      return { ...at('skip'), ...interrupted, reason: 'interrupted before it finished' };
    default:
      return failedRecord({ result, requirementIds, annotations, title, opts, at, withEvidence });
  }
}

type RecordBase = Pick<TestRecord, 'requirementIds' | 'title' | 'file' | 'line' | 'status' | 'durationMs'>;

/** What recordOf hands the failure branch: the last result, its ids and notes, and how a record starts and gets evidence. */
interface Failing {
  result: ResultLike;
  requirementIds: string[];
  annotations: Annotation[];
  title: string;
  opts: CollectOptions;
  at(status: TestStatus): RecordBase;
  withEvidence(message?: string, brokeAt?: string): Partial<TestRecord>;
}

/** A test that failed or ran out of time: a slow run is a kit error; else the failure, with what held and what it cut short. */
function failedRecord({ result, requirementIds, annotations, title, opts, at, withEvidence }: Failing): TestRecord {
  let text =
    result.errors
      .map((e) => e.message ?? e.value ?? '')
      .filter(Boolean)
      .join('\n\n') || `test ${result.status}`;
  // Out of time: the target's fault only when it was late (reports/timed-out.ts); else the run's, a kit error.
  const timedOut = result.status === 'timedOut' ? readTimedOut(evidenceOf(result, title, []), firstLine(text)) : undefined;
  if (timedOut !== undefined && 'slowRun' in timedOut)
    return {
      ...at('error'),
      errorCode: 'WFMCK_E_SLOW_RUN',
      reason: `WFMCK_E_SLOW_RUN: ${firstLine(timedOut.slowRun)}`,
      error: { message: trim(timedOut.slowRun) },
      ...withEvidence(),
    };
  if (timedOut !== undefined) text = `${timedOut.line}\n\n${text}`;
  // judgeAs: the ids whose own check failed; the others it cut short are blocked by the first of them.
  const failed = requirementIds.filter((id) => annotations.some((a) => a.type === FAILED_ANNOTATION && a.description === id));
  // expectEach, judgeAs: the ids whose own check held (and never failed) before the test failed on another.
  const held = requirementIds.filter(
    (id) => !failed.includes(id) && annotations.some((a) => a.type === HELD_ANNOTATION && a.description === id),
  );
  const cutShort = failed.length > 0 ? requirementIds.filter((id) => !failed.includes(id) && !held.includes(id)) : [];
  const failure = failureOf(
    text,
    failed[0] ?? requirementIds.find((id) => !held.includes(id)) ?? requirementIds[0],
    opts.runSeed,
    opts.allIds,
    opts.replayConfig,
  );
  return {
    ...at('fail'),
    reason: reasonLine(failure.message),
    error: failure,
    ...withEvidence(failure.message, timedOut?.late.id),
    ...(held.length > 0 && { held }),
    ...(cutShort.length > 0 && { cutShort: { ids: cutShort, by: failed[0]! } }),
  };
}

/** What the matcher expected, as its failure text prints it ("Expected: 201"): display only, it marks an exchange. */
function expectedOf(message: string): string | undefined {
  return /^\s*Expected(?: value)?: (.{1,80})$/m.exec(stripAnsi(message))?.[1]?.trim();
}

function firstLine(text: string): string {
  return (
    stripAnsi(text)
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim()
      .slice(0, 300) ?? ''
  );
}

function trim(text: string): string {
  return failureOf(text, undefined, undefined).message;
}

function skipReason(annotations: readonly Annotation[]): string {
  const reasons = annotations
    .filter((a) => (a.type === 'skip' || a.type === 'fixme') && a.description)
    .map((a) => stripAnsi(a.description!));
  return reasons.length > 0 ? [...new Set(reasons)].join('; ') : 'skipped';
}
function evidenceOf(result: ResultLike, title: string, problems: string[]) {
  const texts: string[] = [];
  for (const a of result.attachments) {
    if (a.name !== EVIDENCE_ATTACHMENT) continue;
    try {
      texts.push(a.body !== undefined ? a.body.toString('utf8') : a.path !== undefined ? readFileSync(a.path, 'utf8') : '[]');
    } catch (e) {
      problems.push(`test "${title}": evidence attachment unreadable: ${(e as Error).message}`);
    }
  }
  const { exchanges, malformed } = parseEvidence(texts);
  if (malformed > 0) problems.push(`test "${title}": ${malformed} evidence entr${malformed === 1 ? 'y is' : 'ies are'} not an Exchange`);
  return exchanges;
}
