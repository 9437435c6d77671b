// The kit fixes the oracle led to, checked without Python: header sequences that readers name differently are refused
// before reading (spec/rules/tar-headers.ts), and entries named `./` are judged (spec/rules/compose-archive.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { archiveFindings } from '../../spec/rules/compose-archive.ts';
import { headerAmbiguities } from '../../spec/rules/tar-headers.ts';
import { readTar } from '../../spec/rules/tar-read.ts';
import { BENIGN_ARCHIVES, buildTar } from '../../fixtures/archives/build.ts';
import { rawTar, type RawRecord } from './raw-tar.ts';
import { KIT_BUG_REGRESSIONS } from './witnesses.ts';

const withCode = (code: string) => (e: unknown) => (e as { code?: string }).code === code;
const file = (name: string): RawRecord => ({ kind: 'member', name, typeflag: '0', mode: 0o644, content: 'x' });

for (const [name, records] of Object.entries(KIT_BUG_REGRESSIONS)) {
  if (name === 'link-named-dot-slash') continue;
  test(`§2.7 rule 7: ${name} is refused as ambiguous before any entry is read`, async () => {
    await assert.rejects(readTar(rawTar(records)), withCode('WFMCK_E_ARCHIVE_AMBIGUOUS'));
  });
}

test('§2.7 rule 7: a link, a device file or special bits on an entry named ./ are findings', () => {
  const at = (type: string, mode = 0o755, linkname?: string) =>
    archiveFindings([{ name: './', type, mode, size: 0, ...(linkname ? { linkname } : {}) }]).map((f) => f.rule);
  assert.ok(at('link', 0o644, '/app/a').includes('link-out-of-top'));
  assert.ok(
    at('symlink', 0o777, 'app').includes('link-out-of-top'),
    'even a target inside: the link would replace the extraction directory',
  );
  assert.ok(at('fifo').includes('no-special-file'));
  assert.ok(at('directory', 0o1777).includes('no-setuid-setgid-sticky'));
  assert.ok(!at('directory').some((r) => r !== 'one-top-level-directory'), 'a plain ./ directory is fine');
});

test('ordinary long names are not ambiguous: one pax header, GNU long names, ustar prefixes, global mtime', async () => {
  const long = `app/${'d'.repeat(120)}/${'f'.repeat(90)}`;
  const records: RawRecord[] = [
    { kind: 'pax', global: true, records: { mtime: '1' } },
    { kind: 'pax', records: { path: long, mtime: '1' } },
    file('app/placeholder'),
    { kind: 'gnu-long', value: long },
    { ...file(long.slice(0, 100)), format: 'gnu' } as RawRecord,
    { kind: 'member', name: 'f'.repeat(90), prefix: `app/${'d'.repeat(120)}`, typeflag: '0', mode: 0o644, content: 'x' },
  ];
  assert.deepEqual(headerAmbiguities(rawTar(records)), []);
  assert.equal((await readTar(rawTar(records))).filter((e) => e.name === long).length, 3);
  for (const entries of Object.values(BENIGN_ARCHIVES)) assert.deepEqual(headerAmbiguities(await buildTar(entries)), []);
});

test('each ambiguity names the header it found it at', () => {
  const found = headerAmbiguities(
    rawTar([file('app/a'), { kind: 'member', name: 'x', prefix: '../..', typeflag: '0', mode: 0o644, format: 'gnu' }]),
  );
  assert.equal(found.length, 1);
  assert.match(found[0]!, /^header at byte 1024: a non-ustar header with a filled prefix field "\.\.\/\.\."/);
});
