// fast-check arbitraries of benign and hostile compose archives, as raw tar records (test/oracle/raw-tar.ts):
// traversal, absolute and Windows paths, links in and out of the top directory (chains too), special bits, device
// files and fifos, long names (ustar prefix, pax, GNU), pax names over decoys, duplicates, nested directories.
import fc from 'fast-check';
import type { RawRecord } from './raw-tar.ts';

const TOP = 'app';
const LONG = 'l'.repeat(60);
const BENIGN_SEGMENTS = ['a', 'b', 'c', 'conf', LONG];
const HOSTILE_SEGMENTS = [...BENIGN_SEGMENTS, '..', '.', '', TOP, 'other'];
const MODES = [0o644, 0o755, 0o600, 0o700];
const SPECIAL_BITS = [0o4000, 0o2000, 0o1000, 0o6000];

type Kind = 'file' | 'directory' | 'symlink' | 'link' | 'fifo' | 'character-device' | 'block-device' | 'contiguous-file' | 'unknown';
const TYPEFLAG: Record<Kind, string> = {
  file: '0',
  link: '1',
  symlink: '2',
  'character-device': '3',
  'block-device': '4',
  directory: '5',
  fifo: '6',
  'contiguous-file': '7',
  unknown: 'Z',
};

/** How a name (or link name) reaches the header: the readers' ways of spelling long and overridden names. */
type Encoding =
  'plain' | 'ustar-prefix' | 'pax' | 'pax-over-decoy' | 'gnu-long' | 'v7' | 'two-pax' | 'gnu-long-and-pax' | 'gnu-prefix-field';

export interface EntrySpec {
  kind: Kind;
  path: string;
  mode: number;
  linkname?: string;
  encoding: Encoding;
  /** A name the header carries under the real one (pax-over-decoy, two-pax, gnu-long-and-pax, gnu-prefix-field). */
  decoy: string;
  /** Reuse the path of an earlier entry (a duplicate), by index modulo the entries so far. */
  duplicateOf?: number | null;
  zeroBlockBefore: boolean;
}

export interface ArchiveSpec {
  topDirectory: boolean;
  entries: EntrySpec[];
  /** A pax global header before everything (readers merge it into later pax headers). */
  globalPax: Record<string, string> | null;
}

const benignPath = fc.array(fc.constantFrom(...BENIGN_SEGMENTS), { minLength: 1, maxLength: 3 }).map((s) => `${TOP}/${s.join('/')}`);

const hostilePath = fc
  .tuple(
    fc.constantFrom('', '', '', './', '/', '//', 'C:', 'C:\\', '\\', '../'),
    fc.array(fc.constantFrom(...HOSTILE_SEGMENTS), { minLength: 1, maxLength: 4 }),
    fc.constantFrom('/', '/', '/', '\\'),
    fc.constantFrom('', '', '/'),
    fc.boolean(),
  )
  .map(([lead, segs, sep, trail, underTop]) => `${lead}${underTop ? `${TOP}${sep}` : ''}${segs.join(sep)}${trail}`);

const linkTarget = fc.oneof(
  fc.array(fc.constantFrom('..', '..', '.', 'a', 'b', 'conf', TOP, 'other', LONG), { minLength: 0, maxLength: 5 }).map((s) => s.join('/')),
  fc.array(fc.constantFrom('..', 'a', TOP), { minLength: 1, maxLength: 4 }).map((s) => s.join('\\')),
  fc.constantFrom('/etc/passwd', `/${TOP}/a`, 'C:\\Windows', `${TOP}/a`, `${TOP}/conf`, `${TOP}/b/c`, '.', ''),
);

/** Mostly plain modes; one in five carries setuid, setgid or sticky bits. */
const mode = fc.tuple(fc.constantFrom(...MODES), rarely(fc.constantFrom(...SPECIAL_BITS), 4)).map(([m, bits]) => m | (bits ?? 0));

const kind = fc.constantFrom<Kind>(
  'file',
  'file',
  'file',
  'directory',
  'directory',
  'symlink',
  'symlink',
  'symlink',
  'link',
  'link',
  'fifo',
  'character-device',
  'block-device',
  'contiguous-file',
  'unknown',
);

const encoding = fc.constantFrom<Encoding>(
  'plain',
  'plain',
  'plain',
  'plain',
  'ustar-prefix',
  'pax',
  'pax-over-decoy',
  'gnu-long',
  'v7',
  'two-pax',
  'gnu-long-and-pax',
  'gnu-prefix-field',
);

const benignEntry: fc.Arbitrary<EntrySpec> = fc.record({
  kind: fc.constantFrom<Kind>('file', 'file', 'directory', 'symlink', 'link'),
  path: benignPath,
  mode: fc.constantFrom(...MODES),
  linkname: fc.constantFrom('a', 'conf', '../a', `../${LONG}`, 'b/c', `${TOP}/a`, `${TOP}/conf`),
  encoding: fc.constantFrom<Encoding>('plain', 'plain', 'ustar-prefix', 'pax', 'gnu-long'),
  decoy: fc.constant(`${TOP}/decoy`),
  zeroBlockBefore: fc.constant(false),
});

const hostileEntry: fc.Arbitrary<EntrySpec> = fc.record({
  kind,
  path: fc.oneof(benignPath, hostilePath),
  mode,
  linkname: linkTarget,
  encoding,
  decoy: fc.oneof(benignPath, hostilePath),
  duplicateOf: rarely(fc.nat(), 4),
  zeroBlockBefore: fc.nat({ max: 11 }).map((n) => n === 0),
});

export const archiveSpec: fc.Arbitrary<ArchiveSpec> = fc.record({
  topDirectory: fc.boolean(),
  entries: fc.oneof(
    fc.array(benignEntry, { maxLength: 8 }),
    fc.tuple(fc.array(benignEntry, { maxLength: 6 }), fc.array(hostileEntry, { minLength: 1, maxLength: 3 })).map(([b, h]) => [...b, ...h]),
  ),
  globalPax: rarely(fc.constantFrom<Record<string, string>>({ mtime: '1' }, { path: `${TOP}/global` }, { size: '1' }), 12),
});

/** `arb` once in `1 + odds` draws, null otherwise. */
function rarely<T>(arb: fc.Arbitrary<T>, odds: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: odds, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
}

/** The raw records of an archive: top directory and compose.yaml first, then the entries in order. */
export function toRecords(spec: ArchiveSpec): RawRecord[] {
  const out: RawRecord[] = [];
  if (spec.globalPax) out.push({ kind: 'pax', global: true, records: spec.globalPax });
  if (spec.topDirectory) out.push({ kind: 'member', name: `${TOP}/`, typeflag: '5', mode: 0o755 });
  out.push({ kind: 'member', name: `${TOP}/compose.yaml`, typeflag: '0', mode: 0o644, content: 'services: {}\n' });
  const paths: string[] = [];
  for (const e of spec.entries) {
    const path = e.duplicateOf != null && paths.length > 0 ? paths[e.duplicateOf % paths.length]! : e.path;
    paths.push(path);
    if (e.zeroBlockBefore) out.push({ kind: 'zero-block' });
    out.push(...entryRecords({ ...e, path }));
  }
  return out;
}

function entryRecords(e: EntrySpec): RawRecord[] {
  const typeflag = TYPEFLAG[e.kind];
  const isLink = e.kind === 'symlink' || e.kind === 'link';
  const member = { kind: 'member' as const, typeflag, mode: e.mode, content: 'x' };
  const pre: RawRecord[] = [];
  let linkname = isLink ? (e.linkname ?? '') : undefined;
  if (linkname !== undefined && bytes(linkname) > 100) {
    pre.push(
      e.encoding.startsWith('gnu') ? { kind: 'gnu-long', link: true, value: linkname } : { kind: 'pax', records: { linkpath: linkname } },
    );
    linkname = linkname.slice(0, 100);
  }
  const withLink = linkname === undefined ? member : { ...member, linkname };
  const fits = bytes(e.path) <= 100;
  const split = ustarSplit(e.path);
  switch (e.encoding) {
    case 'plain':
    case 'v7':
      if (fits) return [...pre, { ...withLink, name: e.path, ...(e.encoding === 'v7' ? { format: 'v7' as const } : {}) }];
      if (split) return [...pre, { ...withLink, ...split }];
      return [...pre, { kind: 'pax', records: { path: e.path } }, { ...withLink, name: truncate(e.path) }];
    case 'ustar-prefix':
      return split
        ? [...pre, { ...withLink, ...split }]
        : [...pre, { kind: 'pax', records: { path: e.path } }, { ...withLink, name: truncate(e.path) }];
    case 'pax':
      return [...pre, { kind: 'pax', records: { path: e.path } }, { ...withLink, name: truncate(e.path) }];
    case 'pax-over-decoy':
      return [...pre, { kind: 'pax', records: { path: e.path } }, { ...withLink, name: truncate(e.decoy) }];
    case 'gnu-long':
      return [...pre, { kind: 'gnu-long', value: e.path }, { ...withLink, name: truncate(e.path), format: 'gnu' }];
    case 'two-pax':
      return [
        ...pre,
        { kind: 'pax', records: { path: e.decoy } },
        { kind: 'pax', records: { path: e.path } },
        { ...withLink, name: truncate(e.path) },
      ];
    case 'gnu-long-and-pax':
      return [
        ...pre,
        { kind: 'gnu-long', value: e.decoy },
        { kind: 'pax', records: { path: e.path } },
        { ...withLink, name: truncate(e.path), format: 'gnu' },
      ];
    case 'gnu-prefix-field':
      return [...pre, { ...withLink, name: truncate(e.path), prefix: truncate(e.decoy, 155), format: 'gnu' }];
  }
}

/** The ustar name/prefix split of a long path, when one exists. */
function ustarSplit(path: string): { name: string; prefix: string } | undefined {
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (bytes(prefix) <= 155 && bytes(name) <= 100 && name !== '' && prefix !== '') return { name, prefix };
  }
  return undefined;
}

function truncate(s: string, max = 100): string {
  return s.slice(0, max);
}

function bytes(s: string): number {
  return Buffer.byteLength(s);
}
