// `wfmck lint DIR` in-process: the folder is read as `wfmck publish app` reads it (symlinks inside count, outside not).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lint } from '../../cli/lint.ts';
import type { LintReport } from '../../spec/lint/report.ts';
import { tempDir, writePackageFolder } from './fixtures.ts';

async function lintDir(dir: string, ...flags: string[]): Promise<{ code: number; report: LintReport }> {
  let out = '';
  const code = await lint([dir, '--json', ...flags], (text) => void (out += text));
  return { code, report: JSON.parse(out) as LintReport };
}

test('a resource that is a symlink to a file inside the folder counts; one that leads outside does not', async (t) => {
  const dir = await writePackageFolder(t);
  await rename(join(dir, 'resources/icon.png'), join(dir, 'resources/real-icon.png'));
  await symlink('real-icon.png', join(dir, 'resources/icon.png'));
  assert.equal((await lintDir(dir)).code, 0);
  const outside = join(await tempDir(t), 'icon.png');
  await writeFile(outside, 'x');
  await rename(join(dir, 'resources/icon.png'), join(dir, 'resources/old-link'));
  await symlink(outside, join(dir, 'resources/icon.png'));
  const { code, report } = await lintDir(dir);
  assert.deepEqual(
    report.findings.map((f) => f.requirement),
    ['PKG-RESOURCE-LAYER'],
  );
  assert.equal(code, 1);
});

test('--app-description names the description when the folder has several YAML files; --vendor builds the media types', async (t) => {
  const dir = await writePackageFolder(t);
  await writeFile(join(dir, 'values.yaml'), 'replicas: 2\n');
  await assert.rejects(lintDir(dir), /several top-level YAML files/);
  const { code, report } = await lintDir(dir, '--app-description', 'app.yaml', '--vendor', 'margo');
  assert.equal(code, 0);
  assert.match(report.notes.join('\n'), /application\/vnd\.margo\.app\.icon\.v1\+png/);
});
