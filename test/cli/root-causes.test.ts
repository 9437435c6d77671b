// One bug reads as one failure: the kit's reference WFM with fault CAP-PUT-201 (a first PUT answers 200), certified as a
// target through `wfmck serve`, fails CAP-PUT-201 and its §3 twin alone; every check that needed a creation is blocked
// by it, named in conformance.json, the console, JUnit and the HTML: one cause naming both, with its replay command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../../reports/conformance-json.ts';
import { PLUMBING, runWfmck } from '../support/wfmck-cli.ts';
import { startServe, targetConfig } from '../support/serve-target.ts';

test(
  'serve --fault CAP-PUT-201 as a target: CAP-PUT-201 and CAP-LIFE-CREATED fail, every check it disturbs is blocked by it',
  { timeout: 240_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-root-cause-'));
    const served = await startServe(['--fault', 'CAP-PUT-201', '--state-dir', join(dir, 'serve')]);
    try {
      const out = join(dir, 'out');
      const r = await runWfmck(['run', '--config', targetConfig(served, dir), '--out', out, '--seed', '7', ...PLUMBING], served.env);
      assert.equal(r.code, 1, r.stdout.slice(-3000) + r.stderr);
      const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
      const failed = report.requirements
        .filter((q) => q.status === 'fail')
        .map((q) => q.id)
        .sort();
      assert.deepEqual(failed, ['CAP-LIFE-CREATED', 'CAP-PUT-201'], 'the fault and its §3 twin, nothing else');
      const blocked = report.requirements.filter((q) => q.status === 'blocked');
      assert.ok(blocked.length >= 10, `the checks that stand on a creation are blocked (${blocked.length})`);
      for (const q of blocked)
        assert.ok(
          q.blockedBy!.every((c) => c === 'CAP-PUT-201' || c === 'CAP-LIFE-CREATED'),
          `${q.id} is blocked by ${q.blockedBy}`,
        );
      // One bug, one cause (issue 32): both failed on the same PUT answered 200, named by the one that blocks most.
      assert.equal(report.rootCauses[0]!.id, 'CAP-PUT-201');
      assert.equal(report.rootCauses[0]!.status, 'fail');
      assert.deepEqual(report.rootCauses[0]!.alsoFailed, ['CAP-LIFE-CREATED']);
      assert.deepEqual(
        report.rootCauses.filter((c) => c.status === 'fail').map((c) => c.id),
        ['CAP-PUT-201'],
      );
      assert.deepEqual([report.summary.mustFailed, report.summary.error, report.problems], [2, 0, []]);
      assert.match(
        r.stdout,
        /^  CAP-PUT-201 \(MUST\) failed: .*Expected: 201 · Received: 200/m,
        'the console names the cause with its reason',
      );
      assert.match(r.stdout, /^    \d+ requirements blocked by it: /m);
      assert.match(r.stdout, /^    the same exchange failed CAP-LIFE-CREATED \(MUST\) too$/m);
      assert.doesNotMatch(r.stdout, /^  CAP-LIFE-CREATED \(MUST\) failed/m, 'not a cause of its own');
      assert.match(
        r.stdout,
        /^    replay: npx wfmck run --config \S+ --seed 7 .*--grep 'CAP-PUT-201'$/m,
        'the replay line names its --grep',
      );
      assert.match(
        r.stdout,
        /^wfmck run: NOT CONFORMANT: 2 requirements failed, 2 of them MUST; \d+ requirements: .* \d+ blocked, .* 0 kit error$/m,
      );
      const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
      assert.match(junit, /<skipped message="blocked by CAP-PUT-201: /);
      const html = readFileSync(join(out, 'conformance.html'), 'utf8');
      assert.match(html, /Findings by cause/);
      assert.match(html, /requirements blocked by it: <a href="#/);
      const replay = readFileSync(join(out, 'replay.yaml'), 'utf8');
      assert.match(replay, new RegExp(`wfm: ${String(served.info.wfm).replace(/[.]/g, '\\.')}`), 'replay.yaml names the same target');
    } finally {
      await served.stop();
    }
  },
);
