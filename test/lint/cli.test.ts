// `wfmck lint` as a user runs it, in a child process: exit 0 (nothing fails), 1 (a MUST fails), 2 (usage, unreadable).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HOSTILE_ARCHIVES, writeTarGz } from '../../fixtures/archives/build.ts';
import { tempDir, writePackageFolder } from './fixtures.ts';
import { runWfmck, type CliResult } from '../support/wfmck-cli.ts';

const wfmck = (...args: string[]): Promise<CliResult> => runWfmck(['lint', ...args]);

describe('wfmck lint exit codes', { concurrency: true, timeout: 60_000 }, () => {
  test('0: a package folder that would publish cleanly, with the human summary line', async (t) => {
    const r = await wfmck(await writePackageFolder(t));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\(application package folder\): 0 MUST, 0 SHOULD, 0 MAY: PASS at strictness default\n$/);
  });

  test('1: a hostile archive, with the requirement ID in --json', async (t) => {
    const file = join(await tempDir(t), 'evil.tgz');
    await writeTarGz(file, HOSTILE_ARCHIVES['absolute-path']!.entries);
    const r = await wfmck(file, '--json');
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(
      JSON.parse(r.stdout).findings.map((f: { requirement: string }) => f.requirement),
      ['COMPOSE-NO-ABS-PATH'],
    );
  });

  test('2: input that does not exist or cannot be told apart, bad flags, a registry reference without a tag', async (t) => {
    const dir = await tempDir(t);
    await writeFile(join(dir, 'notes.txt'), 'x');
    await writeFile(join(dir, 'broken.json'), '{');
    const runs = await Promise.all([
      wfmck(join(dir, 'missing.json')),
      wfmck(join(dir, 'notes.txt')),
      wfmck(join(dir, 'broken.json')),
      wfmck(join(dir, 'broken.json'), '--strictness', 'loose'),
      wfmck('oci://registry.example.test/hello'),
    ]);
    const why = [/no such file or folder/, /lint reads a \.json/, /is not JSON/, /--strictness: must be one of/, /names no tag/];
    runs.forEach((r, i) => {
      assert.equal(r.code, 2, `${i}: ${r.stderr}`);
      assert.match(r.stderr, why[i]!);
      assert.equal(r.stdout, '', 'nothing judged, nothing printed');
    });
  });
});
