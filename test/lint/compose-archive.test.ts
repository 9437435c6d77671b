// `wfmck lint FILE.tar.gz`: every hostile fixture archive exits 1 with its requirement ID; benign ones pass.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { lint } from '../../cli/lint.ts';
import { BENIGN_ARCHIVES, HOSTILE_ARCHIVES, buildTarGz, type ArchiveEntrySpec } from '../../fixtures/archives/build.ts';
import type { LintReport } from '../../spec/lint/report.ts';
import { rawTar } from '../oracle/raw-tar.ts';
import { KIT_BUG_REGRESSIONS } from '../oracle/witnesses.ts';

/** What each hostile archive's rule breaks, written out here so the mapping table is checked, not echoed. */
const EXPECTED: Record<string, string> = {
  'no-dotdot': 'COMPOSE-NO-DOTDOT',
  'no-absolute-path': 'COMPOSE-NO-ABS-PATH',
  'link-out-of-top': 'COMPOSE-NO-SYMLINK-OUT',
  'no-setuid-setgid-sticky': 'COMPOSE-NO-SETUID',
  'no-special-file': 'COMPOSE-VALIDATE-BEFORE-EXTRACT',
  'no-duplicate-entry': 'COMPOSE-VALIDATE-BEFORE-EXTRACT',
  'compose-yaml-name': 'COMPOSE-FILE-NAME',
  'compose-yaml-missing': 'COMPOSE-FILE-NAME',
  'one-top-level-directory': 'COMPOSE-ONE-TOP-DIR',
  'secret-file-absent': 'COMPOSE-NO-SECRET-FILES',
  'env-file-present': 'COMPOSE-ENV-FILE-IN-ARCHIVE',
  'config-file-present': 'COMPOSE-CONFIG-FILE-IN-ARCHIVE',
  'bind-mount-absent': 'COMPOSE-NO-BIND-MOUNT-CONTENT',
  'ref-inside-top': 'COMPOSE-REFS-INSIDE',
  'compose-spec-conformance': 'COMPOSE-SPEC-CONFORMANT',
};
const dir = mkdtemp(join(tmpdir(), 'wfmck-lint-archive-'));
after(async () => rm(await dir, { recursive: true, force: true }));

async function lintBytes(name: string, bytes: Uint8Array, ...flags: string[]): Promise<{ code: number; report: LintReport }> {
  const file = join(await dir, name);
  await writeFile(file, bytes);
  let out = '';
  const code = await lint([file, '--json', ...flags], (text) => void (out += text));
  return { code, report: JSON.parse(out) as LintReport };
}
const lintArchive = async (name: string, entries: ArchiveEntrySpec[]) => lintBytes(`${name}.tar.gz`, await buildTarGz(entries));

for (const [name, entries] of Object.entries(BENIGN_ARCHIVES)) {
  test(`§2.7: benign archive ${name} passes with no finding`, async () => {
    const { code, report } = await lintArchive(name, entries);
    assert.deepEqual(report.findings, []);
    assert.equal(report.kind, 'compose-archive');
    assert.equal(code, 0);
  });
}

for (const [name, { entries, rule }] of Object.entries(HOSTILE_ARCHIVES)) {
  const id = name === 'hardlink-out' ? 'COMPOSE-NO-HARDLINK-OUT' : EXPECTED[rule];
  test(`§2.7: hostile archive ${name} exits 1 with ${id ?? `an expectation for ${rule}`}`, async () => {
    assert.ok(id, `add the requirement of ${rule} to EXPECTED`);
    const { code, report } = await lintArchive(name, entries);
    assert.deepEqual(
      report.findings.map((f) => [f.rule, f.requirement]),
      [[rule, id]],
    );
    assert.equal(code, 1);
    assert.equal(report.summary.failing, 1);
  });
}

test('COMPOSE-GZIP-TAR: bytes that are not a gzip tar are a failing finding, not a crash', async () => {
  const { code, report } = await lintBytes('plain.tgz', new TextEncoder().encode('not an archive'));
  assert.deepEqual(
    report.findings.map((f) => f.requirement),
    ['COMPOSE-GZIP-TAR'],
  );
  assert.equal(code, 1);
});

test('an archive tar readers would name differently is refused (kit reading of validate-before-extract)', async () => {
  const { code, report } = await lintBytes('ambiguous.tgz', gzipSync(rawTar(KIT_BUG_REGRESSIONS['two-pax-headers-first-escapes']!)));
  assert.deepEqual(
    report.findings.map((f) => [f.requirement, f.reading]),
    [['COMPOSE-VALIDATE-BEFORE-EXTRACT', 'kit']],
  );
  assert.equal(code, 1);
});

test('compose file findings are grouped under the compose file, archive findings under the archive', async () => {
  const { report } = await lintArchive('two-kinds', [
    ...HOSTILE_ARCHIVES['compose-not-conformant']!.entries,
    { name: 'web-app/../x', content: 'x' },
  ]);
  const byFile = Object.fromEntries(report.findings.map((f) => [f.requirement, f.file]));
  assert.match(byFile['COMPOSE-SPEC-CONFORMANT']!, /two-kinds\.tar\.gz: web-app\/compose\.yaml$/);
  assert.match(byFile['COMPOSE-NO-DOTDOT']!, /two-kinds\.tar\.gz$/);
});
