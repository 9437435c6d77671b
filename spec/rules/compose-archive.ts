// §2.7 compose archive structure rules 1, 2 (file name), 3 and 7, judged on the entry list of a tar.
import { finding, type Finding } from './finding.ts';

export interface TarEntry {
  name: string;
  type:
    | 'file'
    | 'directory'
    | 'symlink'
    | 'link'
    | 'character-device'
    | 'block-device'
    | 'fifo'
    | 'contiguous-file'
    | 'pax-header'
    | 'pax-global-header'
    | 'gnu-long-path'
    | 'gnu-long-link-path'
    | string;
  mode: number;
  linkname?: string;
  size: number;
  content?: Uint8Array;
}

export const COMPOSE_FILE = 'compose.yaml';
/** §2.7 rule 2: names a compose tool would also discover, which the archive MUST NOT use instead of compose.yaml. */
export const INVALID_COMPOSE_NAMES = ['compose.yml', 'docker-compose.yaml', 'docker-compose.yml'] as const;

const REGULAR = new Set(['file', 'contiguous-file']);
const LINKS = new Set(['symlink', 'link']);
/** Header records tar readers fold into the next entry; they name no file. */
const META = new Set(['pax-header', 'pax-global-header', 'gnu-long-path', 'gnu-long-link-path']);
/** Not mentioned by §2.7; refusing them is stricter than the spec and the safe reading. */
const SPECIAL = new Set(['character-device', 'block-device', 'fifo']);
const KNOWN = new Set([...REGULAR, ...LINKS, ...META, ...SPECIAL, 'directory']);
const SPECIAL_BITS = 0o7000;
const MAX_LINK_HOPS = 40;

/** POSIX root, Windows drive (`C:`, `C:\`) and UNC or rooted backslash paths (`\\server`, `\x`). */
export function isAbsolutePath(p: string): boolean {
  return /^[/\\]/.test(p) || /^[A-Za-z]:/.test(p);
}

/** A `..` segment anywhere, with `/` or `\` separators (a Windows extractor splits on both). */
export function hasDotDot(p: string): boolean {
  return p.split(/[/\\]/).includes('..');
}

/** Reading: `./` prefixes, `.` segments, doubled and trailing `/` are tar spellings of the same path and are dropped. */
export function segmentsOf(name: string): string[] {
  return name.split('/').filter((s) => s !== '' && s !== '.');
}

/**
 * Resolve `ref` from the directory `base`, following the archive's own symlinks (`links`: path -> target).
 * Undefined when the path is absolute, climbs above the archive root, or loops.
 */
export function resolveFrom(base: string[], ref: string, links: ReadonlyMap<string, string> = new Map(), hops = 0): string[] | undefined {
  if (isAbsolutePath(ref)) return undefined;
  let current = [...base];
  for (const part of ref.split(/[/\\]/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (current.length === 0) return undefined;
      current.pop();
      continue;
    }
    current.push(part);
    const target = links.get(current.join('/'));
    if (target === undefined) continue;
    if (hops >= MAX_LINK_HOPS) return undefined;
    const next = resolveFrom(current.slice(0, -1), target, links, hops + 1);
    if (!next) return undefined;
    current = next;
  }
  return current;
}

interface Named {
  entry: TarEntry;
  segments: string[];
}

/** The entries that name a file, those that name the archive root (`.`, `./`), and the ones refused for their name. */
function partition(entries: TarEntry[]): { named: Named[]; root: TarEntry[]; findings: Finding[] } {
  const named: Named[] = [];
  const root: TarEntry[] = [];
  const findings: Finding[] = [];
  for (const entry of entries) {
    if (META.has(entry.type)) continue;
    if (isAbsolutePath(entry.name)) {
      findings.push(finding('no-absolute-path', '§2.7 rule 7: entries MUST NOT have absolute paths', entry.name));
    } else if (hasDotDot(entry.name)) {
      findings.push(finding('no-dotdot', '§2.7 rule 7: file names MUST NOT contain ../', entry.name));
    } else {
      const segments = segmentsOf(entry.name);
      if (segments.length > 0) named.push({ entry, segments });
      else root.push(entry);
    }
  }
  return { named, root, findings };
}

/** §2.7 rule 1: the single top-level directory, or undefined when there is none or more than one. */
export function topLevelDirectory(entries: TarEntry[]): string | undefined {
  return topOf(partition(entries).named);
}

function topOf(named: Named[]): string | undefined {
  const tops = new Set(named.map((n) => n.segments[0]!));
  if (tops.size !== 1) return undefined;
  const top = [...tops][0]!;
  const atTop = named.filter((n) => n.segments.length === 1);
  if (atTop.some((n) => n.entry.type !== 'directory')) return undefined;
  return atTop.length > 0 || named.some((n) => n.segments.length > 1) ? top : undefined;
}

/** Every §2.7 rule 1, 2 (name), 3 and 7 violation in the archive, one finding per entry and rule. */
export function archiveFindings(entries: TarEntry[]): Finding[] {
  const { named, root, findings } = partition(entries);
  const top = topOf(named);
  findings.push(...rootFindings(root));
  if (top === undefined) {
    findings.push(finding('one-top-level-directory', `§2.7 rule 1: exactly one top-level directory, found ${describeTops(named)}`));
  }
  findings.push(...entryFindings(named, top));
  if (top !== undefined) findings.push(...composeNameFindings(named, top));
  return findings;
}

function describeTops(named: Named[]): string {
  const tops = [...new Set(named.map((n) => n.segments[0]!))];
  return tops.length === 0 ? 'none' : tops.map((t) => JSON.stringify(t)).join(', ');
}

function entryFindings(named: Named[], top: string | undefined): Finding[] {
  const out: Finding[] = [];
  const symlinks = new Map(named.filter((n) => n.entry.type === 'symlink').map((n) => [n.segments.join('/'), n.entry.linkname ?? '']));
  const seen = new Set<string>();
  for (const { entry, segments } of named) {
    const key = segments.join('/');
    if (seen.has(key))
      out.push(
        finding(
          'no-duplicate-entry',
          '§2.7 rule 7: the archive holds this path twice; extraction order would decide its content',
          entry.name,
        ),
      );
    seen.add(key);
    const refusedType = modeAndTypeFindings(out, entry);
    if (!refusedType && LINKS.has(entry.type) && !linkInside(entry, segments, top ?? segments[0]!, symlinks)) {
      out.push(
        finding(
          'link-out-of-top',
          `§2.7 rule 7: ${entry.type} target ${JSON.stringify(entry.linkname)} resolves outside the top-level directory`,
          entry.name,
        ),
      );
    }
  }
  return out;
}

/** Special bits, then special or unknown types; true when the type was refused. */
function modeAndTypeFindings(out: Finding[], entry: TarEntry): boolean {
  if ((entry.mode & SPECIAL_BITS) !== 0) {
    out.push(
      finding('no-setuid-setgid-sticky', `§2.7 rule 7: mode ${entry.mode.toString(8)} carries setuid, setgid or sticky bits`, entry.name),
    );
  }
  if (SPECIAL.has(entry.type)) {
    out.push(finding('no-special-file', `§2.7 rule 7 (kit reading, stricter than the spec): a ${entry.type} entry is refused`, entry.name));
  } else if (!KNOWN.has(entry.type)) {
    out.push(
      finding('entry-type-known', `§2.7 rule 7 (kit reading): unknown entry type ${JSON.stringify(entry.type)} is refused`, entry.name),
    );
  } else {
    return false;
  }
  return true;
}

/** An entry named `.` or `./` is the extraction directory itself: bits and types are judged, and a link there is outside. */
function rootFindings(root: TarEntry[]): Finding[] {
  const out: Finding[] = [];
  for (const entry of root) {
    if (!modeAndTypeFindings(out, entry) && LINKS.has(entry.type)) {
      out.push(
        finding(
          'link-out-of-top',
          `§2.7 rule 7: a ${entry.type} named ${JSON.stringify(entry.name)} would replace the extraction directory itself`,
          entry.name,
        ),
      );
    }
  }
  return out;
}

/** Symlinks resolve from their own directory; hard link targets are archive paths (tar semantics), from the root. */
function linkInside(entry: TarEntry, segments: string[], top: string, symlinks: ReadonlyMap<string, string>): boolean {
  const target = entry.linkname ?? '';
  const base = entry.type === 'symlink' ? segments.slice(0, -1) : [];
  const resolved = resolveFrom(base, target, symlinks);
  return resolved !== undefined && resolved[0] === top;
}

/** Reading: with compose.yaml present, other compose names are inert files and not a finding. */
function composeNameFindings(named: Named[], top: string): Finding[] {
  const atTop = (file: string) => named.filter((n) => n.segments.length === 2 && n.segments[1] === file);
  const compose = atTop(COMPOSE_FILE);
  if (compose.some((n) => REGULAR.has(n.entry.type))) return [];
  if (compose.length > 0) {
    return [
      finding(
        'compose-yaml-missing',
        `§2.7 rule 2: ${top}/${COMPOSE_FILE} is a ${compose[0]!.entry.type}, not a regular file`,
        compose[0]!.entry.name,
      ),
    ];
  }
  const wrong = INVALID_COMPOSE_NAMES.flatMap(atTop);
  if (wrong.length > 0) {
    return wrong.map((n) =>
      finding('compose-yaml-name', `§2.7 rule 2: the file MUST be named compose.yaml; ${n.segments[1]} is invalid`, n.entry.name),
    );
  }
  return [finding('compose-yaml-missing', `§2.7 rule 2: ${top}/${COMPOSE_FILE} not found in the top-level directory`)];
}

/** The content of `<top>/compose.yaml` when the reader kept it. */
export function composeFileEntry(entries: TarEntry[]): TarEntry | undefined {
  const { named } = partition(entries);
  const top = topOf(named);
  if (top === undefined) return undefined;
  return named.find((n) => n.segments.length === 2 && n.segments[0] === top && n.segments[1] === COMPOSE_FILE && REGULAR.has(n.entry.type))
    ?.entry;
}

/** Paths of the archive's entries relative to the top-level directory (the input of compose-file rules). */
export function pathsUnderTop(entries: TarEntry[]): string[] {
  const { named } = partition(entries);
  const top = topOf(named);
  return named.filter((n) => n.segments[0] === top && n.segments.length > 1).map((n) => n.segments.slice(1).join('/'));
}
