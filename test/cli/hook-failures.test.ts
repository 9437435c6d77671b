// A hook that is not wired is the kit's failure, never the target's (issue: the README's serve-admin.sh run without
// WFMCK_ADMIN gave 45 kit errors, 5 MUST "failures" and NOT CONFORMANT after 8.5 minutes). The embedded default is a
// correct target; the configuration binds its hooks to the example script, whose variables this run does not set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { ConformanceReport } from '../../reports/conformance-json.ts';
import { runWfmck } from '../support/wfmck-cli.ts';
import { SERVE_ADMIN_HOOK } from '../support/serve-target.ts';
import { checkHookScript } from '../../cli/hook-scripts.ts';
import { HOOK_FAILURE_LIMIT, hookFailureLine, noteHookFailure, runStop } from '../../run/contract/hook-failures.ts';

const HOOKS = ['assignDeployment', 'removeDeployment', 'retireClient', 'rotateTrustAnchor', 'withdrawIdentityDocument'];

function unwired(dir: string): string {
  const file = join(dir, 'wfmck.config.yaml');
  writeFileSync(file, stringify({ hooks: Object.fromEntries(HOOKS.map((h) => [h, SERVE_ADMIN_HOOK])) }));
  return file;
}

const NO_ADMIN = { WFMCK_ADMIN: '', WFMCK_ADMIN_TOKEN: '' };

test('the example hook read without running it: the variables it requires and this environment lacks are named', () => {
  const lacking = checkHookScript(SERVE_ADMIN_HOOK, process.cwd(), {});
  assert.deepEqual(
    lacking?.problems.map((p) => /needs (\w+)/.exec(p)?.[1]),
    ['WFMCK_ADMIN', 'WFMCK_ADMIN_TOKEN'],
  );
  assert.match(lacking!.problems[0]!, /the admin URL wfmck serve printed/, 'the script says what the variable is; so does the line');
  assert.deepEqual(
    checkHookScript(SERVE_ADMIN_HOOK, process.cwd(), { WFMCK_ADMIN: 'http://127.0.0.1:1', WFMCK_ADMIN_TOKEN: 't' })?.problems,
    [],
  );
  assert.equal(checkHookScript('node -e 1', process.cwd(), {}), undefined, 'not a script: nothing to read, never a false alarm');
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-hook-syntax-'));
  writeFileSync(join(dir, 'broken.sh'), '#!/bin/sh\nif then fi (\n', { mode: 0o755 });
  assert.match(checkHookScript('./broken.sh', dir, {})!.problems.join('\n'), /does not parse \(bash -n\)/);
});

test(`the same hook failing ${HOOK_FAILURE_LIMIT} times stops the run once; --keep-going never stops it`, () => {
  const out = mkdtempSync(join(tmpdir(), 'wfmck-hook-stop-'));
  const failure = { hook: 'retireClient', reason: 'exited with code 1', stderr: 'WFMCK_ADMIN: unset' };
  for (let i = 1; i < HOOK_FAILURE_LIMIT; i++) assert.equal(noteHookFailure(out, failure, false), undefined, `failure ${i}`);
  assert.equal(noteHookFailure(out, { ...failure, hook: 'assignDeployment' }, false), undefined, 'another hook counts apart');
  assert.equal(runStop(out), undefined);
  const stop = noteHookFailure(out, failure, false);
  assert.deepEqual(stop, { cause: 'hook', hook: 'retireClient', message: hookFailureLine('retireClient', HOOK_FAILURE_LIMIT, failure) });
  assert.deepEqual(runStop(out), stop);
  assert.equal(noteHookFailure(out, failure, false), undefined, 'stopped once');
  const going = mkdtempSync(join(tmpdir(), 'wfmck-hook-going-'));
  for (let i = 0; i < HOOK_FAILURE_LIMIT + 2; i++) noteHookFailure(going, failure, true);
  assert.equal(runStop(going), undefined);
});

test(
  'hooks not wired, on a correct target: no fail and no NOT CONFORMANT anywhere, exit 2, one cause naming the hook and its stderr, stopped early',
  { timeout: 600_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-unwired-'));
    const out = join(dir, 'out');
    // The checks the issue saw "fail": CPU fit (a failed hook read as a refusal) and the rotation properties.
    const r = await runWfmck(
      ['run', '--config', unwired(dir), '--out', out, '--seed', '5', '--grep', 'CPU-FIT|BUNDLE-ROTATION-OVERLAP|BUNDLE-SEQUENCE|RETIRED'],
      NO_ADMIN,
    );
    assert.equal(r.code, 2, r.stdout.slice(-3000) + r.stderr);
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
    assert.deepEqual(
      report.requirements.filter((q) => q.status === 'fail').map((q) => q.id),
      [],
      'a hook that failed is never a finding',
    );
    assert.equal(report.summary.verdict, 'no-verdict');
    assert.ok(report.summary.error >= HOOK_FAILURE_LIMIT, `kit errors: ${report.summary.error}`);
    const html = readFileSync(join(out, 'conformance.html'), 'utf8');
    assert.match(html, /class="verdict verdict-no-verdict">No verdict</, 'the HTML badge');
    assert.doesNotMatch(html, /class="verdict verdict-not-conformant"/);
    assert.match(readFileSync(join(out, 'junit.xml'), 'utf8'), /name="wfmck.verdict" value="no-verdict"/);
    assert.doesNotMatch(r.stdout, /NOT CONFORMANT/);
    assert.match(r.stdout, /^wfmck run: NO VERDICT: the kit broke on \d+ requirements?/m);
    assert.match(
      r.stdout,
      /stopped early: hook \w+ failed \d+ times: exited with code 1: .*WFMCK_ADMIN: the admin URL wfmck serve printed/,
    );
    assert.match(
      r.stdout,
      /kit error, not the target's: hook \w+ failed \d+ checks?: exited with code 1: .*WFMCK_ADMIN/,
      'one cause per hook',
    );
    assert.match(r.stderr, /warning: hooks assignDeployment, removeDeployment, .*needs WFMCK_ADMIN/, 'said before any check ran');
  },
);

test(
  '--keep-going: every check that needs the unwired hook ends as a kit error (a property included), none as a failure',
  { timeout: 600_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-unwired-going-'));
    const out = join(dir, 'out');
    const r = await runWfmck(
      ['run', '--config', unwired(dir), '--out', out, '--seed', '5', '--keep-going', '--grep', 'BUNDLE-ROTATION-OVERLAP|CPU-FIT-ONE-ENTRY'],
      NO_ADMIN,
    );
    assert.equal(r.code, 2, r.stdout.slice(-3000) + r.stderr);
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
    const status = (id: string) => report.requirements.find((q) => q.id === id)?.status;
    assert.deepEqual([status('BUNDLE-ROTATION-OVERLAP'), status('CPU-FIT-ONE-ENTRY')], ['error', 'error']);
    assert.doesNotMatch(r.stdout, /stopped early/);
  },
);
