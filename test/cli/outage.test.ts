// A target killed mid-run (issue 32, item 2): `wfmck serve` as the target, killed once 30 checks have ended. The run
// notices within seconds, stops, and reports one outage: no verdict (exit 2), no failure on the checks that ended on
// no answer, the checks it kept from running blocked by it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../../reports/conformance-json.ts';
import { OUTAGE_CAUSE, OUTAGE_FILE } from '../../reports/outage-declared.ts';
import { PLUMBING, WFMCK_BIN, runWfmck } from '../support/wfmck-cli.ts';
import { RECORDS_FILE } from '../../reports/write-report.ts';
import { startServe, targetConfig } from '../support/serve-target.ts';

const KILL_AFTER_CHECKS = 30;
const DARK = /WFMCK_E_CONNECTION|WFMCK_E_TIMEOUT/;

function checksEnded(out: string): number {
  return existsSync(join(out, RECORDS_FILE)) ? readFileSync(join(out, RECORDS_FILE), 'utf8').split('\n').length - 1 : 0;
}

test('a target killed mid-run: one outage, exit 2 within seconds, nothing failed on no answer', { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-outage-'));
  const served = await startServe(['--state-dir', join(dir, 'serve')]);
  const out = join(dir, 'out');
  const child = spawn(process.execPath, [WFMCK_BIN, 'run', '--config', targetConfig(served, dir), '--out', out, '--seed', '7'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...served.env },
  });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stdout += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  // Killed once a few dozen checks have ended (streamed to records.jsonl): a loaded machine starts the runner late.
  let killedAt = 0;
  const kill = setInterval(() => {
    if (checksEnded(out) < KILL_AFTER_CHECKS) return;
    clearInterval(kill);
    killedAt = Date.now();
    served.child.kill('SIGKILL');
  }, 200);
  try {
    const code = await exited;
    const endedAt = Date.now();
    assert.ok(killedAt > 0, `the run ended before the target was killed: ${stdout.slice(-2000)}`);
    assert.equal(code, 2, stdout.slice(-3000));
    assert.ok(endedAt - killedAt < 20_000, `the run ended ${endedAt - killedAt} ms after the kill`);
    assert.match(stdout, /no verdict: the WFM at https:\/\/127\.0\.0\.1:\d+ stopped answering at \d\d:\d\d:\d\d after check \d+ of \d+/);
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
    assert.equal(report.outages.length, 1, JSON.stringify(report.outages));
    const [outage] = report.outages;
    assert.equal(outage!.origin, new URL(String(served.info.wfm)).origin);
    assert.ok(outage!.stopped && outage!.stopped.notRun > 0, 'checks it kept from running are blocked by it');
    assert.ok(outage!.requirements.length > 0);
    for (const r of report.requirements.filter((q) => q.blockedBy?.includes(OUTAGE_CAUSE)))
      assert.equal(r.status, 'blocked', `${r.id} is blocked by the outage`);
    const failedDark = report.requirements.filter((r) => r.status === 'fail' && DARK.test(JSON.stringify(r.evidence?.at(-1) ?? {})));
    assert.deepEqual(
      failedDark.map((r) => r.id),
      [],
      'no requirement fails on no answer',
    );
    assert.equal(
      report.rootCauses.some((c) => c.id === OUTAGE_CAUSE),
      false,
      'the outage is under outages, not a root cause',
    );
    assert.equal(existsSync(join(out, OUTAGE_FILE)), false, 'the hand-over file is gone: the report holds it');
  } finally {
    clearInterval(kill);
    child.kill('SIGKILL');
    await served.stop();
  }
});

test(
  'edition miaf, a WFM presenting an SVID of another wfm-id (every client aborts): MIAF-SERVER-SVID is the one cause, the rest blocked by it',
  { timeout: 600_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-wrong-svid-'));
    const served = await startServe(['--edition', 'miaf', '--fault', 'MIAF-SERVER-SVID', '--state-dir', join(dir, 'serve')]);
    try {
      const out = join(dir, 'out');
      const r = await runWfmck(['run', '--config', targetConfig(served, dir), '--out', out, '--seed', '6', ...PLUMBING], served.env);
      const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
      const failed = report.requirements.filter((q) => q.status === 'fail').map((q) => q.id);
      // SVID-KEY-ALG's own check also reads the server's SVID ("the WFM answers with its own SVID"): the fault breaks both.
      assert.deepEqual(failed.sort(), ['MIAF-SERVER-SVID', 'SVID-KEY-ALG'], r.stdout.slice(-3000));
      const cause = report.rootCauses.find((c) => c.id === 'MIAF-SERVER-SVID');
      assert.ok(
        cause && cause.blocks.length > 20,
        `the checks it kept from running are blocked by it: ${JSON.stringify(report.rootCauses)}`,
      );
      assert.equal(r.code, 1);
    } finally {
      await served.stop();
    }
  },
);
