// JSON Schema errors as findings: each error's field path picks the rule (and so the requirement) it breaks.
import { finding, type Finding } from '../rules/finding.ts';
import type { SchemaError } from '../schemas/index.ts';

/** A field path pattern and the rule for errors there; a function may look at the message (e.g. "is required"). */
export type FieldRule = readonly [RegExp, string | ((e: SchemaError) => string)];

/** ajv's summaries of errors it also reports one by one (if/then, anyOf): they add nothing to a finding. */
const SUMMARY = /^must match "(then|else)" schema$|^must match a schema in anyOf$/;

/**
 * One finding per field and rule, under the first matching field rule or `fallback`; the messages of several errors
 * on one field (an anyOf's branches) are joined. `section` prefixes the message.
 */
export function schemaFindings(errors: readonly SchemaError[], rules: readonly FieldRule[], fallback: string, section: string): Finding[] {
  const byKey = new Map<string, { rule: string; path: string; messages: string[] }>();
  for (const e of errors) {
    if (SUMMARY.test(e.message)) continue;
    const match = rules.find(([pattern]) => pattern.test(e.path));
    const rule = match === undefined ? fallback : typeof match[1] === 'string' ? match[1] : match[1](e);
    const key = `${rule}\u0000${e.path}`;
    const entry = byKey.get(key) ?? { rule, path: e.path, messages: [] };
    entry.messages.push(e.message);
    byKey.set(key, entry);
  }
  return [...byKey.values()].map((e) => finding(e.rule, `${section}: ${e.path} ${e.messages.join(' or ')}`, e.path));
}

export const isRequired = (e: SchemaError): boolean => e.message === 'is required';
