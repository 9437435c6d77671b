// The in-toto Statement v1 a signed run attests: each report file as a subject with its sha256, and a predicate
// carrying the run metadata and summary, so the envelope alone says what was certified, when, and with what verdict.
import { createHash } from 'node:crypto';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const PREDICATE_TYPE = 'https://wfmck.dev/conformance/v1';

export interface Subject {
  /** Path relative to the report folder, forward slashes. */
  name: string;
  digest: { sha256: string };
}

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: Subject[];
  predicateType: typeof PREDICATE_TYPE;
  predicate: Record<string, unknown>;
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The run metadata and summary of conformance.json, as the predicate repeats them (never the per-requirement rows). */
export function predicateOf(report: Record<string, unknown>): Record<string, unknown> {
  const keys = [
    'kit',
    'persona',
    'edition',
    'component',
    'claims',
    'clientUnderTest',
    'embedded',
    'targets',
    'strictness',
    'seed',
    'runs',
    'startedAt',
    'endedAt',
    'interrupted',
    'summary',
    'rootCauses',
    'outages',
  ];
  return Object.fromEntries(keys.filter((k) => report[k] !== undefined).map((k) => [k, report[k]]));
}

export function statementOf(files: readonly { name: string; bytes: Buffer }[], predicate: Record<string, unknown>): Statement {
  return {
    _type: STATEMENT_TYPE,
    subject: files.map((f) => ({ name: f.name, digest: { sha256: sha256Hex(f.bytes) } })),
    predicateType: PREDICATE_TYPE,
    predicate,
  };
}

/** A subject name the verifier will open: relative, inside the folder, no `..`, no backslashes or absolute paths. */
export function isSafeSubjectName(name: string): boolean {
  return /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/.test(name) && !name.split('/').some((seg) => seg === '.' || seg === '..');
}
