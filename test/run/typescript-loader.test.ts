// bin/typescript.mjs: a .ts file runs with its types stripped, its JavaScript is kept in a folder of this user's
// alone and read from it the next time, a stack trace names the .ts line, and a folder another user could write is
// neither read nor written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TYPESCRIPT } from '../support/wfmck-cli.ts';

const SOURCE = `const n: number = 41;
interface Shape { size: number }
const shape: Shape = { size: n + 1 };
console.log(shape.size);
if (process.argv[2] === 'throw') throw new Error('from line 5');
`;

function setUp(): { tmp: string; cache: string; file: string; run(arg?: string): string } {
  const tmp = mkdtempSync(join(tmpdir(), 'wfmck-loader-test-'));
  const file = join(tmp, 'shape.ts');
  writeFileSync(file, SOURCE);
  const run = (arg = '') =>
    execFileSync(process.execPath, [...TYPESCRIPT, file, arg], { env: { ...process.env, TMPDIR: tmp }, encoding: 'utf8', stdio: 'pipe' });
  return { tmp, cache: join(tmp, `wfmck-typescript-${process.getuid!()}`), file, run };
}

test('a .ts file runs, its JavaScript is kept and read back, and a stack trace names the .ts line', (t) => {
  const s = setUp();
  t.after(() => rmSync(s.tmp, { recursive: true, force: true }));
  assert.equal(s.run().trim(), '42');
  const kept = readdirSync(s.cache);
  assert.equal(kept.length, 1, 'one file transformed, one kept');
  assert.equal(s.run().trim(), '42');
  assert.deepEqual(readdirSync(s.cache), kept, 'the second run read what the first kept');
  assert.throws(
    () => s.run('throw'),
    (e: { stderr: string }) => e.stderr.includes(`${s.file}:5`),
  );
});

test('a cache folder others may write is neither read nor written: the file is transformed in memory', (t) => {
  const s = setUp();
  t.after(() => rmSync(s.tmp, { recursive: true, force: true }));
  mkdirSync(s.cache);
  chmodSync(s.cache, 0o777);
  assert.equal(s.run().trim(), '42');
  assert.deepEqual(readdirSync(s.cache), []);
});
