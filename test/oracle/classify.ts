// Compares the kit's verdict on an archive with tarfile's, and names the documented difference (DIFFERENCES.md) that
// explains each disagreement; anything else is undocumented and fails the oracle test.
import { hasDotDot, isAbsolutePath, segmentsOf, topLevelDirectory, type TarEntry } from '../../spec/rules/compose-archive.ts';
import type { Finding } from '../../spec/rules/finding.ts';
import { kitRejects, type KitVerdict } from './kit-verdict.ts';
import { pythonRejects, type PythonVerdict } from './python-oracle.ts';

/** The classes of fixtures/oracle/DIFFERENCES.md: places where the kit refuses what tarfile's data filter extracts. */
export const DIFFERENCE_CLASSES = [
  'absolute-name-stripped',
  'dotdot-inside-destination',
  'link-outside-top-directory',
  'link-loop',
  'link-through-later-symlink',
  'link-name-spelling',
  'windows-spelling',
  'special-bits-cleared',
  'entries-after-end-marker',
  'pre-posix-header',
  'ambiguous-headers',
] as const;
export type DifferenceClass = (typeof DIFFERENCE_CLASSES)[number];

export type Comparison =
  | { outcome: 'agree'; rejected: boolean }
  | { outcome: 'documented'; classes: DifferenceClass[] }
  | { outcome: 'undocumented'; reason: string };

export function compare(kit: KitVerdict, py: PythonVerdict): Comparison {
  const kitNo = kitRejects(kit);
  if (kitNo === pythonRejects(py)) return { outcome: 'agree', rejected: kitNo };
  if (!kitNo) return { outcome: 'undocumented', reason: `tarfile refuses what the kit accepts: ${describePython(py)}` };
  if (!kit.readable) return unreadableClass(kit);
  const classes = new Set<DifferenceClass>();
  for (const f of kit.refusals) {
    const c = findingClass(f, kit.entries, py);
    if (typeof c !== 'string' || !(DIFFERENCE_CLASSES as readonly string[]).includes(c)) {
      const why = typeof c === 'string' ? `class ${c} is not in DIFFERENCE_CLASSES` : c.why;
      return { outcome: 'undocumented', reason: `kit finding ${f.rule} on ${JSON.stringify(f.path)}: ${why}` };
    }
    classes.add(c as DifferenceClass);
  }
  return { outcome: 'documented', classes: [...classes].sort() };
}

function unreadableClass(kit: KitVerdict): Comparison {
  const { code, message } = kit.readError!;
  if (code === 'WFMCK_E_ARCHIVE_AMBIGUOUS') return { outcome: 'documented', classes: ['ambiguous-headers'] };
  if (code === 'WFMCK_E_ARCHIVE_CORRUPT' && /unknown format/.test(message)) return { outcome: 'documented', classes: ['pre-posix-header'] };
  return { outcome: 'undocumented', reason: `the kit cannot read what tarfile extracts: ${code} ${message}` };
}

type Why = { why: string };

function findingClass(f: Finding, entries: TarEntry[], py: PythonVerdict): DifferenceClass | Why {
  const pyNames = py.members.map((m) => bare(m.name));
  if (!entries.every((e, i) => i >= pyNames.length || pyNames[i] === bare(e.name)))
    return { why: `tarfile names the entries differently: ${describePython(py)}` };
  // A duplicated name: the finding is about one of the entries that carry it and that the rule applies to.
  const candidates = entries.flatMap((e, i) => (e.name === f.path && applies(f.rule, e) ? [i] : []));
  if (candidates.length === 0) return { why: 'no entry with that name is one the rule applies to' };
  const classes = candidates.map((i) => (i >= pyNames.length ? 'entries-after-end-marker' : ruleClass(f, entries, i, pyNames.length)));
  return classes.find((c): c is DifferenceClass => typeof c === 'string') ?? classes[0]!;
}

function ruleClass(f: Finding, entries: TarEntry[], index: number, seen: number): DifferenceClass | Why {
  const name = f.path ?? '';
  switch (f.rule) {
    case 'no-absolute-path':
      return name.startsWith('/') ? 'absolute-name-stripped' : 'windows-spelling';
    case 'no-dotdot':
      return name.split('/').includes('..') ? 'dotdot-inside-destination' : 'windows-spelling';
    case 'no-setuid-setgid-sticky':
      return 'special-bits-cleared';
    case 'link-out-of-top':
      return linkClass(entries, index, seen);
    default:
      return { why: 'tarfile refuses this entry too, yet accepted the archive' };
  }
}

const SPECIAL_TYPES = new Set(['character-device', 'block-device', 'fifo']);

function applies(rule: string, e: TarEntry): boolean {
  switch (rule) {
    case 'no-setuid-setgid-sticky':
      return (e.mode & 0o7000) !== 0;
    case 'no-special-file':
      return SPECIAL_TYPES.has(e.type);
    case 'entry-type-known':
      return e.type === 'unknown';
    case 'link-out-of-top':
      return e.type === 'symlink' || e.type === 'link';
    default:
      return true;
  }
}

type Resolution = 'inside-top' | 'outside-top' | 'above-root' | 'absolute' | 'loop';
const escapes = (o: Resolution) => o === 'above-root' || o === 'absolute';

/** Why the kit found a link outside the top directory that tarfile let through; `seen` = entries tarfile read. */
function linkClass(entries: TarEntry[], index: number, seen: number): DifferenceClass | Why {
  const entry = entries[index]!;
  const target = entry.linkname ?? '';
  const segments = segmentsOf(entry.name);
  if (segments.length === 0) return 'link-outside-top-directory';
  const symlink = entry.type === 'symlink';
  const base = symlink ? segments.slice(0, -1) : [];
  const top = topLevelDirectory(entries) ?? segments[0]!;
  const all = symlinkMap(entries, entries.length);
  const outcome = resolve(base, target, all, top);
  if (outcome === 'inside-top' && (/\\|^[A-Za-z]:/.test(target) || [...all.values()].some((t) => t.includes('\\'))))
    return 'windows-spelling';
  if (outcome === 'outside-top') return 'link-outside-top-directory';
  if (outcome === 'loop') return 'link-loop';
  if (!escapes(outcome)) return { why: `the link resolves ${outcome} by POSIX rules, and no backslash explains the kit's finding` };
  if (!escapes(resolve(base, target, symlinkMap(entries, seen), top))) return 'entries-after-end-marker';
  const before = symlinkMap(entries, index);
  if (!escapes(resolve(base, target, before, top))) return 'link-through-later-symlink';
  if (symlink && !escapes(resolve(segmentsOf(dirname(entry.name)), target, before, top))) return 'link-name-spelling';
  return { why: `the link resolves ${outcome}, which tarfile refuses too` };
}

/** The archive's symlinks among its first `count` entries, as the kit keys them (entries refused by name left out). */
function symlinkMap(entries: TarEntry[], count: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of entries.slice(0, count)) {
    if (e.type !== 'symlink' || isAbsolutePath(e.name) || hasDotDot(e.name) || segmentsOf(e.name).length === 0) continue;
    out.set(segmentsOf(e.name).join('/'), e.linkname ?? '');
  }
  return out;
}

/** Python's os.path.dirname: everything before the last `/`, so `d/` has directory `d` and `d/./.` has `d/.`. */
function dirname(name: string): string {
  return name.slice(0, name.lastIndexOf('/') + 1).replace(/(?<=.)\/+$/, '');
}

/** Lexical resolution that follows the archive's symlinks (POSIX separators only), with loop detection. */
function resolve(base: string[], target: string, links: Map<string, string>, top: string): Resolution {
  const walked = walk(base, target, links, 0);
  if (typeof walked === 'string') return walked;
  return walked[0] === top ? 'inside-top' : 'outside-top';
}

function walk(base: string[], target: string, links: Map<string, string>, depth: number): string[] | 'absolute' | 'above-root' | 'loop' {
  if (target.startsWith('/')) return 'absolute';
  if (depth > 40) return 'loop';
  let current = [...base];
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (current.length === 0) return 'above-root';
      current.pop();
      continue;
    }
    current.push(part);
    const next = links.get(current.join('/'));
    if (next === undefined) continue;
    const inner = walk(current.slice(0, -1), next, links, depth + 1);
    if (typeof inner === 'string') return inner;
    current = inner;
  }
  return current;
}

function bare(name: string): string {
  return name.replace(/\/+$/, '');
}

function describePython(py: PythonVerdict): string {
  if (!py.readable) return `unreadable (${py.readError})`;
  const refused = py.refusals.map((r) => `${r.reason} on ${JSON.stringify(r.member)}`).join(', ');
  return `members ${JSON.stringify(py.members.map((m) => m.name))}${refused ? `; refused: ${refused}` : ''}`;
}
