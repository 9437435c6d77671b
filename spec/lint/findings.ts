// Lint findings: a rule's Finding with the catalog requirement it breaks, its level, and whether it fails a run (P9).
import { requirementById, type Level } from '../requirements.ts';
import type { Strictness } from '../profile.ts';
import type { Finding } from '../rules/finding.ts';
import { requirementOfRule, type Reading } from './rule-requirements.ts';

/** A Finding as a lint input module reports it: where it is (`file`), and the variant of its rule when one applies. */
export interface Located extends Finding {
  file?: string;
  variant?: string;
}

export interface LintFinding {
  requirement: string;
  level: Level;
  rule: string;
  message: string;
  path?: string;
  file?: string;
  reading?: Reading;
}

export function located(findings: readonly Finding[], file: string | undefined, variant?: (f: Finding) => string | undefined): Located[] {
  return findings.map((f) => {
    const v = variant?.(f);
    return { ...f, ...(file !== undefined ? { file } : {}), ...(v !== undefined ? { variant: v } : {}) };
  });
}

export function toLintFinding(f: Located): LintFinding {
  const { requirement, reading } = requirementOfRule(f.rule, f.variant);
  return {
    requirement,
    level: requirementById(requirement).level,
    rule: f.rule,
    message: f.message,
    ...(f.path !== undefined ? { path: f.path } : {}),
    ...(f.file !== undefined ? { file: f.file } : {}),
    ...(reading ? { reading } : {}),
  };
}

/** P9: strict fails on every MUST and SHOULD; default on MUSTs; lenient on MUSTs with no known ambiguity or kit reading. */
export function fails(f: LintFinding, strictness: Strictness): boolean {
  if (f.reading === 'not-judged' || f.level === 'MAY') return false;
  if (strictness === 'strict') return true;
  if (f.level === 'SHOULD' || f.level === 'SHOULD NOT' || f.reading === 'ambiguous') return false;
  return strictness === 'default' || f.reading === undefined;
}

/** Why a MUST-level finding does not fail at this strictness, for the human report. */
export function whyNotFailing(f: LintFinding, strictness: Strictness): string | undefined {
  if (fails(f, strictness) || (f.level !== 'MUST' && f.level !== 'MUST NOT')) return undefined;
  if (f.reading === 'not-judged') return 'the catalog errata: no strictness judges it';
  if (f.reading === 'ambiguous') return 'ambiguous in the spec: fails only in strict';
  return `kit reading: warns in ${strictness}`;
}
