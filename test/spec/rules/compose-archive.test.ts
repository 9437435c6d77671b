import { fcOptions } from '../../support/fc.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  archiveFindings,
  hasDotDot,
  isAbsolutePath,
  resolveFrom,
  topLevelDirectory,
  type TarEntry,
} from '../../../spec/rules/compose-archive.ts';
import { readTar } from '../../../spec/rules/tar-read.ts';
import { BENIGN_ARCHIVES, HOSTILE_ARCHIVES, buildTar, type ArchiveEntrySpec } from '../../../fixtures/archives/build.ts';

const fcOpts = fcOptions(300);
const rules = (fs: { rule: string }[]) => fs.map((f) => f.rule);
const read = async (specs: ArchiveEntrySpec[]) => readTar(await buildTar(specs));
const dir = (name: string, mode = 0o755): TarEntry => ({ name, type: 'directory', mode, size: 0 });
const file = (name: string, mode = 0o644): TarEntry => ({ name, type: 'file', mode, size: 1 });
const link = (name: string, linkname: string, type = 'symlink'): TarEntry => ({ name, type, mode: 0o777, size: 0, linkname });
const app = (...extra: TarEntry[]) => [dir('app/'), file('app/compose.yaml'), ...extra];

const ARCHIVE_RULES = new Set([
  'no-dotdot',
  'no-absolute-path',
  'link-out-of-top',
  'no-setuid-setgid-sticky',
  'no-special-file',
  'no-duplicate-entry',
  'compose-yaml-name',
  'compose-yaml-missing',
  'one-top-level-directory',
]);

for (const [name, entries] of Object.entries(BENIGN_ARCHIVES)) {
  test(`§2.7: benign archive ${name} has no archive findings`, async () => {
    assert.deepEqual(archiveFindings(await read(entries)), []);
  });
}

for (const [name, { entries, rule }] of Object.entries(HOSTILE_ARCHIVES)) {
  if (!ARCHIVE_RULES.has(rule)) continue;
  test(`§2.7: hostile archive ${name} gives exactly ${rule}`, async () => {
    assert.deepEqual(rules(archiveFindings(await read(entries))), [rule]);
  });
}

test('§2.7 rule 1: the top-level directory, with and without a directory entry or ./ prefixes', () => {
  assert.equal(topLevelDirectory(app()), 'app');
  assert.equal(topLevelDirectory([file('app/compose.yaml')]), 'app');
  assert.equal(topLevelDirectory([dir('./'), dir('./app/'), file('./app/compose.yaml')]), 'app');
  assert.equal(topLevelDirectory([file('compose.yaml')]), undefined, 'a file at the root is not a directory');
  assert.equal(topLevelDirectory([]), undefined);
  assert.equal(topLevelDirectory([...app(), dir('b/')]), undefined);
  assert.deepEqual(rules(archiveFindings([])), ['one-top-level-directory']);
  assert.deepEqual(rules(archiveFindings([file('compose.yaml')])), ['one-top-level-directory']);
});

test('§2.7 rule 2: compose.yaml is found only directly in the top-level directory', () => {
  assert.deepEqual(rules(archiveFindings([dir('app/'), file('app/sub/compose.yaml')])), ['compose-yaml-missing']);
  assert.deepEqual(rules(archiveFindings([dir('app/'), link('app/compose.yaml', 'real.yaml'), file('app/real.yaml')])), [
    'compose-yaml-missing',
  ]);
  assert.deepEqual(rules(archiveFindings([dir('app/'), file('app/compose.yml'), file('app/docker-compose.yaml')])), [
    'compose-yaml-name',
    'compose-yaml-name',
  ]);
  assert.deepEqual(archiveFindings(app(file('app/docker-compose.yml'))), [], 'reading: beside compose.yaml the other names are inert');
  assert.deepEqual(archiveFindings(app(file('app/sub/docker-compose.yml'))), []);
});

test('§2.7 rule 7: absolute paths in POSIX and Windows spellings', () => {
  for (const p of ['/etc/passwd', '\\\\server\\share\\x', '\\x', 'C:\\x', 'c:/x', 'D:']) assert.equal(isAbsolutePath(p), true, p);
  for (const p of ['app/x', './app', 'app:1/x']) assert.equal(isAbsolutePath(p), false, p);
  assert.deepEqual(rules(archiveFindings(app(file('/app/x')))), ['no-absolute-path']);
});

test('§2.7 rule 7: ../ anywhere, a trailing .., and backslash forms; names merely containing dots are fine', () => {
  for (const p of ['../x', 'app/../x', 'app/..', 'app\\..\\x', '..']) assert.equal(hasDotDot(p), true, p);
  for (const p of ['app/..x', 'app/x..', 'app/.../x', 'app/.hidden']) assert.equal(hasDotDot(p), false, p);
  assert.deepEqual(archiveFindings(app(file('app/..x'), file('app/.env'))), []);
});

test('§2.7 rule 7: links resolve from their own directory (symlinks) or the archive root (hard links), following archive symlinks', () => {
  assert.deepEqual(archiveFindings(app(dir('app/a/'), link('app/a/up', '..'))), [], 'the top directory itself is inside');
  assert.deepEqual(archiveFindings(app(link('app/h', 'app/compose.yaml', 'link'))), []);
  const out = (...e: TarEntry[]) => rules(archiveFindings(app(...e)));
  assert.deepEqual(out(link('app/x', '..')), ['link-out-of-top']);
  assert.deepEqual(out(link('app/x', '../app/../other')), ['link-out-of-top']);
  assert.deepEqual(out(link('app/x', '..\\..\\etc')), ['link-out-of-top']);
  assert.deepEqual(out(link('app/x', 'C:\\Windows')), ['link-out-of-top']);
  assert.deepEqual(out(link('app/h', 'compose.yaml', 'link')), ['link-out-of-top'], 'hard link targets are archive paths');
  assert.deepEqual(out(link('app/a', 'b'), link('app/b', 'a')), ['link-out-of-top', 'link-out-of-top'], 'a loop resolves nowhere');
  assert.deepEqual(resolveFrom(['app', 'd'], '../x/./y'), ['app', 'x', 'y']);
  assert.equal(resolveFrom([], '..'), undefined);
});

test('§2.7 rule 7 and kit readings: special bits, device files, unknown types, duplicates', () => {
  for (const bits of [0o4000, 0o2000, 0o1000])
    assert.deepEqual(rules(archiveFindings(app(file('app/x', 0o755 | bits)))), ['no-setuid-setgid-sticky']);
  assert.deepEqual(rules(archiveFindings(app({ name: 'app/c', type: 'character-device', mode: 0o600, size: 0 }))), ['no-special-file']);
  assert.deepEqual(rules(archiveFindings(app({ name: 'app/u', type: 'unknown', mode: 0o644, size: 0 }))), ['entry-type-known']);
  assert.deepEqual(
    archiveFindings(app({ name: 'PaxHeader', type: 'pax-header', mode: 0o644, size: 0 })),
    [],
    'header records name no file',
  );
  assert.deepEqual(rules(archiveFindings(app(dir('app/')))), ['no-duplicate-entry'], '"app" and "app/" are one path');
  assert.deepEqual(rules(archiveFindings(app(file('./app/compose.yaml')))), ['no-duplicate-entry']);
});

const segment = fc
  .string({ unit: fc.constantFrom(...'abcdefgh019._-'), minLength: 1, maxLength: 6 })
  .filter((s) => s !== '.' && s !== '..');

/** A random benign tree under `app/`: directories for every prefix, files at the leaves, inner symlinks to files. */
const benignTree = fc
  .record({
    paths: fc.uniqueArray(fc.array(segment, { minLength: 1, maxLength: 4 }), { maxLength: 12, selector: (p) => p.join('/') }),
    links: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 3 }),
    withDirEntries: fc.boolean(),
  })
  .map(({ paths, links, withDirEntries }) => {
    const keys = new Set(paths.map((p) => p.join('/')));
    const leaves = paths
      .filter((p) => ![...keys].some((k) => k.startsWith(`${p.join('/')}/`)))
      .filter((p) => p.join('/') !== 'compose.yaml');
    const dirs = new Set(leaves.flatMap((p) => p.slice(0, -1).map((_, i) => p.slice(0, i + 1).join('/'))));
    const files = leaves.filter((p) => !dirs.has(p.join('/')));
    const entries: TarEntry[] = [dir('app/'), file('app/compose.yaml')];
    if (withDirEntries) entries.push(...[...dirs].map((d) => dir(`app/${d}/`)));
    entries.push(...files.map((p) => file(`app/${p.join('/')}`)));
    for (const [i, [from, to]] of links.entries()) {
      if (files.length === 0) break;
      const base = files[from % files.length]!.slice(0, -1);
      const target = files[to % files.length]!;
      const name = [...base, `zz-link${i}`].join('/');
      if (keys.has(name)) continue;
      entries.push(link(`app/${name}`, `${'../'.repeat(base.length)}${target.join('/')}`));
    }
    return entries;
  });

test('§2.7: random benign trees stay clean', () => {
  fc.assert(
    fc.property(benignTree, (entries) => assert.deepEqual(archiveFindings(entries), [])),
    fcOpts,
  );
});

type Mutation = { rule: string; entry: (dirs: string[]) => TarEntry };
const mutations: fc.Arbitrary<Mutation> = fc.oneof(
  fc
    .tuple(fc.array(segment, { maxLength: 3 }), fc.nat({ max: 3 }), fc.constantFrom('/', '\\'), fc.boolean())
    .map(([p, ups, sep, trailing]) => ({
      rule: 'no-dotdot',
      entry: () => file(['app', ...p, ...Array(ups + 1).fill('..'), ...(trailing ? [] : ['zz-evil'])].join(sep)),
    })),
  fc.tuple(fc.constantFrom('/', 'C:\\', '\\\\host\\', 'd:/'), fc.array(segment, { minLength: 1, maxLength: 3 })).map(([root, p]) => ({
    rule: 'no-absolute-path',
    entry: () => file(root + p.join('/')),
  })),
  fc.tuple(fc.nat(), fc.constantFrom('relative', 'absolute', 'hard')).map(([k, how]) => ({
    rule: 'link-out-of-top',
    entry: (dirs: string[]) => {
      const base = dirs[k % dirs.length]!.split('/');
      const target = how === 'absolute' ? '/etc/shadow' : how === 'hard' ? 'etc/shadow' : `${'../'.repeat(base.length)}etc/shadow`;
      return link(`${base.join('/')}/zz-link-out`, target, how === 'hard' ? 'link' : 'symlink');
    },
  })),
  fc.tuple(fc.nat(), fc.constantFrom(0o4000, 0o2000, 0o1000, 0o7000)).map(([k, bits]) => ({
    rule: 'no-setuid-setgid-sticky',
    entry: (dirs: string[]) => file(`${dirs[k % dirs.length]!}/zz-special`, 0o755 | bits),
  })),
);

test('§2.7 rule 7: inserting one hostile mutation anywhere always yields exactly that finding', () => {
  fc.assert(
    fc.property(benignTree, mutations, fc.nat(), (entries, mutation, at) => {
      const dirs = ['app', ...entries.filter((e) => e.type === 'directory').map((e) => e.name.replace(/\/$/, ''))];
      const mutated = [...entries];
      mutated.splice(at % (entries.length + 1), 0, mutation.entry(dirs));
      assert.deepEqual(rules(archiveFindings(mutated)), [mutation.rule]);
    }),
    fcOpts,
  );
});
