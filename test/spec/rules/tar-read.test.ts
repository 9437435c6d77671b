import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { readTar, readTarGz } from '../../../spec/rules/tar-read.ts';
import { composeComponentFindings } from '../../../spec/rules/compose-file.ts';
import { BENIGN_ARCHIVES, HOSTILE_ARCHIVES, benignEntries, buildTar, buildTarGz } from '../../../fixtures/archives/build.ts';
import { fcOptions } from '../../support/fc.ts';

const fcOpts = fcOptions(50);
const rules = (fs: { rule: string }[]) => fs.map((f) => f.rule);
const text = (b?: Uint8Array) => (b ? new TextDecoder().decode(b) : undefined);
const withCode = (code: string) => (e: unknown) => (e as { code?: string }).code === code;

test('a tar.gz reads back into entries with names, types, modes, link targets and small contents', async () => {
  const entries = await readTarGz(await buildTarGz(benignEntries('app', [{ name: 'app/run.sh', content: '#!/bin/sh\n', mode: 0o750 }])));
  const byName = new Map(entries.map((e) => [e.name.replace(/\/$/, ''), e]));
  assert.equal(byName.get('app')?.type, 'directory');
  assert.match(text(byName.get('app/compose.yaml')?.content) ?? '', /^services:/);
  assert.equal(byName.get('app/run.sh')?.mode, 0o750);
  assert.equal(byName.get('app/config/nested/up')?.type, 'symlink');
  assert.equal(byName.get('app/config/nested/up')?.linkname, '../site.conf');
});

test('readTar and readTarGz agree; long names survive (pax/ustar prefix)', async () => {
  const long = `app/${'d'.repeat(120)}/${'f'.repeat(120)}.yaml`;
  const specs = benignEntries('app', [{ name: long, content: 'x: 1\n' }]);
  const plain = await readTar(await buildTar(specs));
  assert.deepEqual(await readTarGz(await buildTarGz(specs)), plain);
  assert.ok(plain.some((e) => e.name === long));
});

test('files above maxFileBytesKept keep no content; compose rules then stop with a kit error', async () => {
  const entries = await readTar(await buildTar(benignEntries()), { maxFileBytesKept: 4 });
  assert.ok(entries.every((e) => e.content === undefined));
  assert.throws(() => composeComponentFindings(entries), withCode('WFMCK_E_ARCHIVE_CONTENT_NOT_KEPT'));
});

test('a decompression bomb stops at maxBytes with WFMCK_E_ARCHIVE_TOO_LARGE', async () => {
  const bomb = await buildTarGz([
    { name: 'app/', type: 'directory' },
    { name: 'app/zeros', content: new Uint8Array(8 * 1024 * 1024) },
  ]);
  assert.ok(bomb.byteLength < 64 * 1024, 'the compressed archive is small');
  await assert.rejects(readTarGz(bomb, { maxBytes: 1024 * 1024 }), withCode('WFMCK_E_ARCHIVE_TOO_LARGE'));
  await assert.rejects(readTar(new Uint8Array(4096), { maxBytes: 1024 }), withCode('WFMCK_E_ARCHIVE_TOO_LARGE'));
  assert.equal((await readTarGz(bomb)).length, 2, 'the default limit admits it');
});

test('more than maxEntries entries stops with WFMCK_E_ARCHIVE_TOO_MANY_ENTRIES', async () => {
  const many = await buildTar(Array.from({ length: 20 }, (_, i) => ({ name: `app/f${i}`, content: 'x' })));
  await assert.rejects(readTar(many, { maxEntries: 10 }), withCode('WFMCK_E_ARCHIVE_TOO_MANY_ENTRIES'));
  assert.equal((await readTar(many, { maxEntries: 20 })).length, 20);
});

test('bytes that are not gzip or not tar give WFMCK_E_ARCHIVE_CORRUPT', async () => {
  const tarBytes = await buildTar(benignEntries());
  await assert.rejects(readTarGz(tarBytes), withCode('WFMCK_E_ARCHIVE_CORRUPT'));
  await assert.rejects(readTarGz(gzipSync(Buffer.from('definitely not a tar archive'.repeat(40)))), withCode('WFMCK_E_ARCHIVE_CORRUPT'));
  await assert.rejects(readTar(tarBytes.subarray(0, 700)), withCode('WFMCK_E_ARCHIVE_CORRUPT'));
});

for (const [name, entries] of Object.entries(BENIGN_ARCHIVES)) {
  test(`§2.7: benign ${name}.tar.gz reads and judges clean`, async () => {
    assert.deepEqual(composeComponentFindings(await readTarGz(await buildTarGz(entries))), []);
  });
}

for (const [name, { entries, rule }] of Object.entries(HOSTILE_ARCHIVES)) {
  test(`§2.7: hostile ${name}.tar.gz reads and gives exactly ${rule}`, async () => {
    assert.deepEqual(rules(composeComponentFindings(await readTarGz(await buildTarGz(entries)))), [rule]);
  });
}

test('random file trees round-trip: names, modes and contents are preserved', async () => {
  const name = fc.string({ unit: fc.constantFrom(...'abcxyz019._-'), minLength: 1, maxLength: 10 }).filter((s) => s !== '.' && s !== '..');
  const file = fc.record({ name, content: fc.uint8Array({ maxLength: 300 }), mode: fc.constantFrom(0o644, 0o755, 0o600, 0o4755) });
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(file, { maxLength: 10, selector: (f) => f.name }), async (files) => {
      const specs = files.map((f) => ({ name: `app/${f.name}`, content: f.content, mode: f.mode }));
      const read = await readTarGz(await buildTarGz(specs));
      assert.deepEqual(
        read.map((e) => [e.name, e.mode, Buffer.from(e.content ?? [])]),
        specs.map((s) => [s.name, s.mode, Buffer.from(s.content)]),
      );
    }),
    fcOpts,
  );
});
