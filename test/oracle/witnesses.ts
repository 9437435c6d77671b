// Smallest archives for each documented difference, and the parser differentials the oracle caught in the kit.
import type { DifferenceClass } from './classify.ts';
import type { RawRecord } from './raw-tar.ts';

const file = (name: string, mode = 0o644): RawRecord => ({ kind: 'member', name, typeflag: '0', mode, content: 'x' });
const symlink = (name: string, linkname: string): RawRecord => ({ kind: 'member', name, typeflag: '2', mode: 0o777, linkname });
const base: RawRecord[] = [{ kind: 'member', name: 'app/', typeflag: '5', mode: 0o755 }, file('app/compose.yaml')];

/** One archive per class of DIFFERENCES.md: tarfile extracts it, the kit refuses it for exactly that reason. */
export const WITNESSES: Record<DifferenceClass, RawRecord[]> = {
  'absolute-name-stripped': [...base, file('/app/x')],
  'dotdot-inside-destination': [...base, file('app/../app/x')],
  'link-outside-top-directory': [...base, symlink('app/l', '../other')],
  'link-loop': [...base, symlink('app/a', 'b'), symlink('app/b', 'a')],
  'link-through-later-symlink': [...base, symlink('app/t', 's/../..'), symlink('app/s', '.')],
  'link-name-spelling': [...base, symlink('app/./.', '..')],
  'windows-spelling': [...base, file('app\\..\\..\\evil')],
  'special-bits-cleared': [...base, file('app/run.sh', 0o4755)],
  'entries-after-end-marker': [...base, { kind: 'zero-block' }, { kind: 'member', name: 'app/pipe', typeflag: '6', mode: 0o644 }],
  'pre-posix-header': [...base, { ...file('app/v7'), format: 'v7' } as RawRecord],
  'ambiguous-headers': [...base, { kind: 'pax', records: { path: 'app/a' } }, { kind: 'pax', records: { path: 'app/b' } }, file('app/c')],
};

/**
 * Archives the kit accepted before this oracle ran while tarfile extracts them outside the destination (or refuses
 * them): readers disagreed on the names, or an entry named `./` escaped every check. The kit must refuse each.
 */
export const KIT_BUG_REGRESSIONS: Record<string, RawRecord[]> = {
  'gnu-header-prefix-field': [
    ...base,
    { kind: 'member', name: 'app/x', prefix: '../../..', typeflag: '0', mode: 0o644, content: 'x', format: 'gnu' },
  ],
  'two-pax-headers-first-escapes': [
    ...base,
    { kind: 'pax', records: { path: '../../evil' } },
    { kind: 'pax', records: { path: 'app/ok' } },
    file('app/decoy'),
  ],
  'gnu-long-name-then-pax-path': [
    ...base,
    { kind: 'gnu-long', value: '../../evil' },
    { kind: 'pax', records: { path: 'app/ok' } },
    { ...file('app/decoy'), format: 'gnu' } as RawRecord,
  ],
  'global-pax-path': [...base, { kind: 'pax', global: true, records: { path: '../../g' } }, file('app/x')],
  'empty-pax-path-over-decoy': [...base, { kind: 'pax', records: { path: '' } }, symlink('app/x/y', '..')],
  'link-named-dot-slash': [...base, { kind: 'member', name: './', typeflag: '1', mode: 0o644, linkname: '/app/a' }],
};
