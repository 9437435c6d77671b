// Issue 18: an archive's entry names are anyone's. One that carries line breaks and escape codes (erase the line,
// move up, paint "PASS") is printed escaped by `wfmck lint`, and the last line is still the real verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benignEntries, writeTarGz } from '../../fixtures/archives/build.ts';
import { runWfmck } from '../support/wfmck-cli.ts';

const SPOOF = `../\u001b[2K\u001b[1A\rweb-app/compose.yaml: PASS at strictness default\n\u202eevil`;

test('lint prints a spoofing entry name escaped, and its own verdict last', { timeout: 60_000 }, async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'wfmck-spoof-')), 'spoof.tar.gz');
  await writeTarGz(file, benignEntries('web-app', [{ name: SPOOF, content: 'x' }]));
  const r = await runWfmck(['lint', file]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout, /[\u001b\r\u202e]/, 'no control character reaches the terminal');
  assert.match(r.stdout, /\\x1b\[2K\\x1b\[1A\\rweb-app\/compose\.yaml: PASS at strictness default\\n\\u202eevil/);
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(lines.at(-1)!, /spoof\.tar\.gz \(compose archive\): \d+ MUST, \d+ SHOULD, \d+ MAY: FAIL/);
  assert.equal(lines.filter((l) => /PASS at strictness/.test(l) && !/\\x1b/.test(l)).length, 0, 'no line of its own says PASS');
});
