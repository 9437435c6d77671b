// `wfmck run` pieces that need no Playwright: the verdict from conformance.json and the replay command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replayCommand } from '../../cli/run.ts';
import { verdict } from '../../cli/run-verdict.ts';

const summary = {
  requirements: 10,
  pass: 7,
  fail: 0,
  warn: 1,
  blocked: 0,
  skip: 1,
  untestable: 1,
  notCovered: 0,
  error: 0,
  judged: 8,
  mustFailed: 0,
};

function report(content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'wfmck-verdict-')), 'conformance.json');
  writeFileSync(file, content);
  return file;
}

test('verdict: exit 1 iff a requirement failed (a MUST, or in strict a SHOULD); warnings and blocks never fail', async () => {
  assert.equal((await verdict(report(JSON.stringify({ summary: { ...summary, mustFailed: 0 } })))).code, 0);
  const failed = await verdict(report(JSON.stringify({ summary: { ...summary, pass: 6, fail: 1, mustFailed: 1, blocked: 19 } })));
  assert.equal(failed.code, 1);
  assert.match(failed.line, /^NOT CONFORMANT: 1 requirement failed, 1 of them MUST; 10 requirements: 6 pass, 1 fail, 1 warn, 19 blocked/);
  // P9 strict: the reporter marks a failed SHOULD as `fail` (not `warn`), and that fails the run.
  const strictShould = await verdict(report(JSON.stringify({ summary: { ...summary, pass: 6, fail: 1, mustFailed: 0 } })));
  assert.equal(strictShould.code, 1);
});

test('verdict: a kit error, a problem of the kit itself or a run that judged nothing is exit 2, whatever else failed', async () => {
  const problems = ['run error: Error: test "x" must start with its requirement ids "CAP-PUT-201"', 'another'];
  const broken = await verdict(report(JSON.stringify({ summary: { ...summary, mustFailed: 0 }, problems })));
  assert.equal(broken.code, 2);
  assert.match(broken.line, /; kit problem: run error: .* \(and 1 more in .*conformance\.json\)$/);
  assert.equal((await verdict(report(JSON.stringify({ summary: { ...summary, fail: 2, mustFailed: 2 }, problems })))).code, 2);
  const kitError = await verdict(report(JSON.stringify({ summary: { ...summary, error: 3 } })));
  assert.deepEqual([kitError.code, /^NO VERDICT: the kit broke on 3 requirements; .* 3 kit error$/.test(kitError.line)], [2, true]);
  assert.equal(
    (await verdict(report(JSON.stringify({ summary: { ...summary, fail: 1, mustFailed: 1, error: 1 } })))).code,
    2,
    'a kit error is never hidden behind a failure',
  );
  const nothing = await verdict(report(JSON.stringify({ summary: { ...summary, pass: 0, warn: 0, judged: 0, skip: 10, mustFailed: 0 } })));
  assert.deepEqual([nothing.code, nothing.line.startsWith('NO VERDICT: nothing was judged')], [2, true]);
});

test('verdict: a missing, unreadable or incomplete report is exit 2 with the reason', async () => {
  const missing = await verdict('/nonexistent/conformance.json');
  assert.deepEqual([missing.code, /wrote no \/nonexistent\/conformance\.json/.test(missing.line)], [2, true]);
  assert.equal((await verdict(report('{'))).code, 2);
  assert.match((await verdict(report(JSON.stringify({ summary: { requirements: 1 } })))).line, /has no summary of this kit's version/);
});

test("replayCommand names the run's replay.yaml and fixes the seed", () => {
  assert.equal(replayCommand({ out: '/tmp/run 1', seed: 77 }), `npx wfmck run --config '/tmp/run 1/replay.yaml' --seed 77`);
  assert.equal(
    replayCommand({ out: '/o', seed: -3, grep: 'CAP-PUT 201' }),
    `npx wfmck run --config /o/replay.yaml --seed -3 --grep 'CAP-PUT 201'`,
  );
});
