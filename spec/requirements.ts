// The requirement catalog: requirements.yaml is the data, this module loads and validates it.
// Suites call requirementById so a test title can only name a requirement that exists.
import { readFileSync } from 'node:fs';
import { parseYaml } from './yaml-memo.ts';
import type { Edition } from './profile.ts';

export type Level = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY';
export type Observer = 'wfm' | 'identity' | 'registry' | 'client' | 'untestable';
export type Source = 'interfaces' | 'profiles';

export interface Requirement {
  readonly id: string;
  /** interfaces.md section number ("2.1.1") or profile id ("P4"). */
  readonly section: string;
  readonly level: Level;
  readonly text: string;
  readonly observer: Observer;
  /** Why nobody outside can observe it; present exactly when observer is untestable. */
  readonly reason?: string;
  /**
   * A client duty the device persona cannot see on the wire (it happens inside the device, or needs what the kit
   * cannot do to a real device), and why. Only for observer client; its WFM-side mirror may still be judged.
   */
  readonly unseen?: string;
  /** Like unseen, in the named editions only (the device persona judges it in the others). */
  readonly unseenIn?: Readonly<Partial<Record<Edition, string>>>;
  /** The reading the kit chose where the spec is ambiguous, and how strictness treats it. */
  readonly errata?: string;
  readonly source: Source;
  /** The editions it applies to (P10); absent in the YAML = every edition. */
  readonly editions: readonly Edition[];
}

export const LEVELS: readonly Level[] = ['MUST', 'MUST NOT', 'SHOULD', 'SHOULD NOT', 'MAY'];
export const OBSERVERS: readonly Observer[] = ['wfm', 'identity', 'registry', 'client', 'untestable'];
export const ID_PATTERN = /^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/;

export const EDITIONS: readonly Edition[] = ['seed', 'miaf'];

const SOURCES: readonly Source[] = ['interfaces', 'profiles'];
const KEYS = new Set(['id', 'section', 'level', 'text', 'observer', 'reason', 'unseen', 'unseenIn', 'errata', 'source', 'editions']);
const SECTION_PATTERN: Record<Source, RegExp> = { interfaces: /^\d+(\.\d+)*$/, profiles: /^P\d+$/ };

export function isMandatory(level: Level): boolean {
  return level === 'MUST' || level === 'MUST NOT';
}

/**
 * Parses catalog text; throws one Error listing every problem, so a bad edit is fixed in one pass. `memo`: the shipped
 * catalog's parse is kept on disk (spec/yaml-memo.ts), as every Playwright worker reads it.
 */
export function parseRequirements(yamlText: string, origin = 'requirements.yaml', memo = false): Requirement[] {
  let doc: unknown;
  try {
    doc = parseYaml(yamlText, memo);
  } catch (err) {
    throw new Error(`${origin}: not valid YAML: ${(err as Error).message}`);
  }
  if (!Array.isArray(doc)) throw new Error(`${origin}: the top level must be a list of requirements`);

  const problems: string[] = [];
  const seen = new Set<string>();
  const out: Requirement[] = [];
  doc.forEach((raw: unknown, index) => {
    const where = `entry ${index + 1}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems.push(`${where}: not a mapping`);
      return;
    }
    const e = raw as Record<string, unknown>;
    const label = typeof e.id === 'string' ? `${where} (${e.id})` : where;
    const before = problems.length;
    const str = (key: string, required: boolean): string | undefined => {
      const v = e[key];
      if (v === undefined) {
        if (required) problems.push(`${label}: missing ${key}`);
        return undefined;
      }
      if (typeof v !== 'string' || v.trim() === '') {
        problems.push(`${label}: ${key} must be a non-empty string`);
        return undefined;
      }
      if (/[\r\n]/.test(v)) problems.push(`${label}: ${key} must be one line`);
      return v;
    };

    for (const key of Object.keys(e)) if (!KEYS.has(key)) problems.push(`${label}: unknown key ${key}`);
    const id = str('id', true);
    const section = str('section', true);
    const level = str('level', true);
    const text = str('text', true);
    const observer = str('observer', true);
    const reason = str('reason', false);
    const errata = str('errata', false);
    const unseen = str('unseen', false);
    const unseenIn = unseenInMap(e.unseenIn, label, problems);
    const source = str('source', false) ?? 'interfaces';
    const editions = editionList(e.editions, label, problems);

    if (id !== undefined) {
      if (!ID_PATTERN.test(id)) problems.push(`${label}: id must be UPPER-KEBAB with a prefix (${ID_PATTERN})`);
      if (seen.has(id)) problems.push(`${label}: duplicate id`);
      seen.add(id);
    }
    if (level !== undefined && !(LEVELS as readonly string[]).includes(level)) {
      problems.push(`${label}: level must be one of ${LEVELS.join(', ')}`);
    }
    if (observer !== undefined && !(OBSERVERS as readonly string[]).includes(observer)) {
      problems.push(`${label}: observer must be one of ${OBSERVERS.join(', ')}`);
    }
    if (!(SOURCES as readonly string[]).includes(source)) {
      problems.push(`${label}: source must be one of ${SOURCES.join(', ')}`);
    } else if (section !== undefined && !SECTION_PATTERN[source as Source].test(section)) {
      problems.push(`${label}: section ${section} does not fit source ${source} (${SECTION_PATTERN[source as Source]})`);
    }
    if (observer === 'untestable' && reason === undefined && !('reason' in e)) {
      problems.push(`${label}: observer untestable needs a reason`);
    }
    // A reason on an observable rule would read as an excuse not to test it.
    if (observer !== undefined && observer !== 'untestable' && 'reason' in e) {
      problems.push(`${label}: reason is only for observer untestable`);
    }
    if (observer !== undefined && observer !== 'client' && ('unseen' in e || 'unseenIn' in e)) {
      problems.push(`${label}: unseen and unseenIn are only for observer client (the device persona's blind spots)`);
    }
    if ('unseen' in e && 'unseenIn' in e) problems.push(`${label}: unseen (every edition) and unseenIn (some) exclude each other`);
    if (problems.length > before) return;
    out.push({
      id: id!,
      section: section!,
      level: level as Level,
      text: text!,
      observer: observer as Observer,
      ...(reason !== undefined && { reason }),
      ...(unseen !== undefined && { unseen }),
      ...(unseenIn !== undefined && { unseenIn }),
      ...(errata !== undefined && { errata }),
      source: source as Source,
      editions: editions!,
    });
  });

  if (problems.length > 0) {
    throw new Error(`${origin}: ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  }
  return out;
}

/** `editions: [seed]`: a non-empty list of distinct known editions, in EDITIONS order; absent = all. */
function editionList(v: unknown, label: string, problems: string[]): Edition[] | undefined {
  if (v === undefined) return [...EDITIONS];
  if (!Array.isArray(v) || v.length === 0 || v.some((x) => !(EDITIONS as readonly unknown[]).includes(x)) || new Set(v).size !== v.length) {
    problems.push(`${label}: editions must be a non-empty list of distinct values from ${EDITIONS.join(', ')}`);
    return undefined;
  }
  return EDITIONS.filter((x) => v.includes(x));
}

function unseenInMap(v: unknown, label: string, problems: string[]): Partial<Record<Edition, string>> | undefined {
  if (v === undefined) return undefined;
  const ok =
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.keys(v).length > 0 &&
    Object.entries(v).every(([k, r]) => (EDITIONS as readonly string[]).includes(k) && typeof r === 'string' && r.trim() !== '');
  if (!ok) problems.push(`${label}: unseenIn maps editions (${EDITIONS.join(', ')}) to the reason the wire shows nothing there`);
  return ok ? (v as Partial<Record<Edition, string>>) : undefined;
}

/** Whether the requirement binds a target under test in this edition. */
export function appliesTo(req: Pick<Requirement, 'editions'>, edition: Edition): boolean {
  return req.editions.includes(edition);
}

let cache: { list: Requirement[]; byId: Map<string, Requirement> } | undefined;

function catalog(): { list: Requirement[]; byId: Map<string, Requirement> } {
  if (cache === undefined) {
    const url = new URL('./requirements.yaml', import.meta.url);
    const list = parseRequirements(readFileSync(url, 'utf8'), url.pathname, true);
    // Frozen so one suite cannot change what another reads from the shared cache.
    for (const r of list) {
      Object.freeze(r.editions);
      Object.freeze(r);
    }
    Object.freeze(list);
    cache = { list, byId: new Map(list.map((r) => [r.id, r])) };
  }
  return cache;
}

/** A fresh array each call (entries are shared and frozen), so a caller may sort or filter it freely. */
export function loadRequirements(): Requirement[] {
  return [...catalog().list];
}

export function requirementById(id: string): Requirement {
  const r = catalog().byId.get(id);
  if (r === undefined) throw new Error(`unknown requirement id ${id} (not in spec/requirements.yaml)`);
  return r;
}
