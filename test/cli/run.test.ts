// `wfmck run` pieces that need no Playwright: the verdict from conformance.json and the replay command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replayCommand, verdict } from '../../cli/run.ts';

const summary = { requirements: 10, pass: 7, fail: 0, warn: 1, skip: 1, untestable: 1, notCovered: 0 };

function report(content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'wfmck-verdict-')), 'conformance.json');
  writeFileSync(file, content);
  return file;
}

test('verdict: exit 1 iff a requirement failed (a MUST, or in strict a SHOULD); warnings never fail', async () => {
  assert.equal((await verdict(report(JSON.stringify({ summary: { ...summary, mustFailed: 0 } })))).code, 0);
  const failed = await verdict(report(JSON.stringify({ summary: { ...summary, pass: 6, fail: 1, mustFailed: 1 } })));
  assert.equal(failed.code, 1);
  assert.match(failed.line, /1 requirement\(s\) failed, 1 of them MUST; 10 requirements: 6 pass, 1 fail/);
  // P9 strict: the reporter marks a failed SHOULD as `fail` (not `warn`), and that fails the run.
  const strictShould = await verdict(report(JSON.stringify({ summary: { ...summary, pass: 6, fail: 1, mustFailed: 0 } })));
  assert.equal(strictShould.code, 1);
});

test('verdict: problems of the kit itself (a suite that did not load) are exit 2 unless a MUST already failed', async () => {
  const problems = ['run error: Error: test "x" must start with its requirement ids "CAP-PUT-201"', 'another'];
  const broken = await verdict(report(JSON.stringify({ summary: { ...summary, mustFailed: 0 }, problems })));
  assert.equal(broken.code, 2);
  assert.match(broken.line, /^kit error, no verdict: run error: .* \(and 1 more in .*conformance\.json\)$/);
  assert.equal((await verdict(report(JSON.stringify({ summary: { ...summary, fail: 2, mustFailed: 2 }, problems })))).code, 1);
});

test('verdict: a missing, unreadable or incomplete report is exit 2 with the reason', async () => {
  const missing = await verdict('/nonexistent/conformance.json');
  assert.deepEqual([missing.code, /wrote no \/nonexistent\/conformance\.json/.test(missing.line)], [2, true]);
  assert.equal((await verdict(report('{'))).code, 2);
  assert.match((await verdict(report(JSON.stringify({ summary })))).line, /no summary\.mustFailed/);
});

test('replayCommand keeps the flags given, fixes the seed and drops --out', () => {
  assert.equal(
    replayCommand(['--wfm', 'https://127.0.0.1:9', '--seed', '5', '--out=reports/x', '--grep', 'CAP-PUT 201', '--strictness=strict'], 77),
    `npx wfmck run --seed 77 --wfm https://127.0.0.1:9 --grep 'CAP-PUT 201' --strictness strict`,
  );
  assert.equal(replayCommand([], -3), 'npx wfmck run --seed -3');
});
