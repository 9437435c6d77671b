// Which checks a run runs: `--grep`, and the catalog's own words for a selection (`--level MUST`, `--section 4.1`,
// `--last-failed`) turned into one Playwright grep over the requirement ids every test title starts with.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Level, Requirement } from '../../spec/requirements.ts';

/** `--level` words: MUST and SHOULD take their NOT forms with them (a mandatory prohibition is a MUST). */
export const LEVEL_WORDS = ['MUST', 'SHOULD', 'MAY'] as const;
const LEVELS_OF: Record<(typeof LEVEL_WORDS)[number], readonly Level[]> = {
  MUST: ['MUST', 'MUST NOT'],
  SHOULD: ['SHOULD', 'SHOULD NOT'],
  MAY: ['MAY'],
};

export interface Selection {
  grep?: string;
  levels?: readonly (typeof LEVEL_WORDS)[number][];
  /** Spec sections (`4.1` also selects `4.1.x`; `P10` the profile). */
  sections?: readonly string[];
  /** Requirement ids chosen outright (`--last-failed`). */
  ids?: readonly string[];
}

/** A regular expression that matches a title naming any of `ids` as a whole id. */
export function idsGrep(ids: readonly string[]): string {
  return `(?<![-A-Z0-9])(?:${[...ids].sort((a, b) => b.length - a.length).join('|')})(?![-A-Z0-9])`;
}

/** The ids a selection's catalog words pick, or undefined when it names none of them (every id then). */
export function selectedIds(s: Selection, catalog: readonly Requirement[]): string[] | undefined {
  if (!s.levels?.length && !s.sections?.length && s.ids === undefined) return undefined;
  const levels = s.levels?.flatMap((w) => LEVELS_OF[w]);
  return catalog
    .filter((r) => !levels || levels.includes(r.level))
    .filter((r) => !s.sections?.length || s.sections.some((sec) => r.section === sec || r.section.startsWith(`${sec}.`)))
    .filter((r) => s.ids === undefined || s.ids.includes(r.id))
    .map((r) => r.id);
}

/** One Playwright grep for the whole selection (a user's --grep and the catalog's words must both hold). */
export function selectionGrep(s: Selection, catalog: readonly Requirement[]): string | undefined {
  const ids = selectedIds(s, catalog);
  if (ids === undefined) return s.grep;
  // An empty selection matches no title (Playwright then finds no test, and the run judges nothing: exit 2).
  const picked = ids.length > 0 ? idsGrep(ids) : '(?!)';
  return s.grep ? `(?=.*(?:${s.grep}))${picked}` : picked;
}

/** The newest run under `root` (reports/out) that left a report and its replay configuration. */
export function lastRun(root: string): string | undefined {
  if (!existsSync(root)) return undefined;
  const runs = readdirSync(root)
    .map((name) => join(root, name))
    .filter((dir) => existsSync(join(dir, 'conformance.json')) && existsSync(join(dir, 'replay.yaml')))
    .sort((a, b) => statSync(join(b, 'conformance.json')).mtimeMs - statSync(join(a, 'conformance.json')).mtimeMs);
  return runs[0];
}

/** The requirements a run failed (or erred on): what `--last-failed` runs again. */
export function failedIds(dir: string): string[] {
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { requirements?: { id: string; status: string }[] };
  return (report.requirements ?? []).filter((r) => r.status === 'fail' || r.status === 'error').map((r) => r.id);
}
