// From Playwright's TestCase/TestResult to the report's TestRecord: ids from `req` annotations, the status of the
// last attempt, skip reasons, the fixed failure shape and (for failures only) the evidence attachment.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { failureOf, isKitError, stripAnsi } from './failure.ts';
import { EVIDENCE_ATTACHMENT, parseEvidence } from './evidence.ts';
import { HELD_ANNOTATION, type TestRecord, type TestStatus } from './matrix.ts';

export interface CollectOptions {
  /** Folder file paths are shown relative to (the project root). */
  rootDir: string;
  runSeed: number | undefined;
  /** Every catalog id, so a replay --grep never selects a longer id by prefix. */
  allIds: readonly string[];
  interrupted: boolean;
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
  if (result === undefined) return { ...at('skip'), reason: opts.interrupted ? 'not run: the run was interrupted' : 'not run' };
  switch (result.status) {
    case 'passed': {
      // A departure the errata make a warning (warnUnlessStrict) must show in the matrix, never as a plain pass.
      const warnings = annotations.filter((a) => a.type === 'warning' && a.description).map((a) => stripAnsi(a.description!));
      return warnings.length ? { ...at('warn'), reason: [...new Set(warnings)].join('; ') } : at('pass');
    }
    case 'skipped':
      return { ...at('skip'), reason: skipReason(annotations) };
    case 'interrupted':
      return { ...at('skip'), reason: 'interrupted before it finished' };
    default: {
      const text = result.errors.map((e) => e.message ?? e.value ?? '').filter(Boolean).join('\n\n') || `test ${result.status}`;
      const evidence = evidenceOf(result, title, problems);
      const kitError = isKitError(text);
      // expectEach: the ids whose own check held before the test failed on another.
      const held = kitError ? [] : requirementIds.filter((id) => annotations.some((a) => a.type === HELD_ANNOTATION && a.description === id));
      return {
        ...at(kitError ? 'error' : 'fail'),
        error: failureOf(text, requirementIds.find((id) => !held.includes(id)) ?? requirementIds[0], opts.runSeed, opts.allIds),
        ...(evidence.length > 0 && { evidence }),
        ...(held.length > 0 && { held }),
      };
    }
  }
}

function skipReason(annotations: readonly Annotation[]): string {
  const reasons = annotations.filter((a) => (a.type === 'skip' || a.type === 'fixme') && a.description).map((a) => stripAnsi(a.description!));
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
