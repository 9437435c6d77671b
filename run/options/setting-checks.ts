// The checks of `wfmck run`'s own settings (the shared ones are in run/options/args.ts): each takes a raw value (a
// flag's string, an env variable, a YAML node) and returns the checked value or throws what is wrong.
import { resolve } from 'node:path';
import { LEVEL_WORDS } from '../contract/selection.ts';
import { pattern, positiveInt, text, type Parse } from './args.ts';
import { didYouMean } from './suggest.ts';

export type LevelWord = (typeof LEVEL_WORDS)[number];

/** `--level MUST,SHOULD`: the catalog's level words. */
export const levelWords = (raw: unknown): LevelWord[] => {
  const words = (Array.isArray(raw) ? raw.map(String) : text(raw).split(',')).map((w) => w.trim().toUpperCase()).filter(Boolean);
  const bad = words.find((w) => !(LEVEL_WORDS as readonly string[]).includes(w));
  if (bad !== undefined || words.length === 0) throw new Error(`must be one or more of ${LEVEL_WORDS.join(', ')}, comma-separated`);
  return words as LevelWord[];
};

/** `--section 4.1,P10`: spec section numbers as the catalog writes them. */
export const sectionWords = (raw: unknown): string[] => {
  const words = (Array.isArray(raw) ? raw.map(String) : text(raw).split(',')).map((w) => w.trim().replace(/^§/, '')).filter(Boolean);
  const bad = words.find((w) => !/^(\d+(\.\d+)*|P\d+)$/.test(w));
  if (bad !== undefined || words.length === 0) throw new Error(`"${bad ?? ''}" is not a section number (4.1, 2.1.1, P10)`);
  return words;
};

/** `--timeout-scale 2.5`: a factor of at least 1 (a budget is never cut below what the checks were written for). */
export const timeoutScale = (raw: unknown): number => {
  const n = typeof raw === 'number' ? raw : /^\d+(\.\d+)?$/.test(text(raw).trim()) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= 100)) throw new Error(`must be a number from 1 to 100, not ${JSON.stringify(raw)}`);
  return n;
};

/** A list of names (claims): a YAML list or comma-separated, each once. */
export function names(raw: unknown): string[] {
  const list = (Array.isArray(raw) ? raw.map(String) : text(raw).split(',')).map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) throw new Error('expected at least one name');
  return [...new Set(list)];
}

/** `targets.registryRepository`: an OCI repository namespace. */
export function repository(raw: unknown): string {
  // OCI distribution-spec repository name grammar.
  return pattern(/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/, 'an OCI repository name')(
    raw,
    '',
    'targets.registryRepository',
  ) as string;
}

const HOOK_KEYS = ['command', 'timeoutMs', 'cwd'];

/** A hook runs where its relative paths were written: the folder of the YAML that names it, else wfmck's own. */
export function hook(raw: unknown, base: string): { command: string; timeoutMs?: number; cwd: string } {
  if (typeof raw === 'string') return { command: text(raw), cwd: base };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new Error('expected a shell command or {command, timeoutMs, cwd}');
  const extra = Object.keys(raw).filter((k) => !HOOK_KEYS.includes(k));
  if (extra.length)
    throw new Error(
      `unknown key "${extra[0]}"${didYouMean(extra[0]!, HOOK_KEYS, (k) => `"${k}"`)} (a hook has command, timeoutMs and cwd)`,
    );
  const h = raw as { command?: unknown; timeoutMs?: unknown; cwd?: unknown };
  return {
    command: text(h.command),
    ...(h.timeoutMs !== undefined && { timeoutMs: positiveInt(h.timeoutMs) }),
    cwd: h.cwd === undefined ? base : resolve(base, text(h.cwd)),
  };
}
