// The CI gate run as CI runs it, against the kit's reference services as a target (`wfmck serve` on loopback, its
// hooks through examples/hooks/serve-admin.sh): action.yml's steps and the GitLab template's script, each in a temp
// folder that plays the user's repository. Clean: exit 0, the summary holds the verdict and the counts; with
// `serve --fault CAP-PUT-201`: exit 1 and the summary names the failed requirement. Each run is two checks (GREP);
// each prints its wall time. The uploaded path and the GitLab artifacts must exist: an example that names a folder the
// gate does not write fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { ConformanceReport } from '../../reports/conformance-json.ts';
import { startServe, targetConfig, type Served } from '../support/serve-target.ts';
import { runAction, runGitlabJob } from './steps.ts';

const KIT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
const ACTION = parse(readFileSync(join(KIT, 'action.yml'), 'utf8'));
const GITLAB = parse(readFileSync(join(KIT, 'deploy/ci/wfmck.gitlab-ci.yml'), 'utf8'));
// Two checks, the --grep quoted with a space inside: the args input is split as a shell would.
const GREP = "--grep 'CAP-PUT-20[01] PUT' --seed 7";

/** The environment of a CI job: this one's, without what a GitHub runner of these tests would add, and the admin API. */
function jobEnv(served: Served): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, ...served.env };
  for (const k of Object.keys(env)) if (k.startsWith('GITHUB_') || k.startsWith('WFMCK_GATE_')) delete env[k];
  return env;
}

/** A user's repository: its wfmck.config.yaml names the served target. */
function userRepo(served: Served, label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `wfmck-ci-${label}-`));
  targetConfig(served, dir);
  return dir;
}

async function githubGate(served: Served, label: string, given: Record<string, string> = {}) {
  const workspace = userRepo(served, label);
  const summaryFile = join(workspace, '..', `${label}-step-summary.md`);
  writeFileSync(summaryFile, '');
  const started = Date.now();
  const run = await runAction(ACTION, {
    actionPath: KIT,
    workspace,
    given: { config: 'wfmck.config.yaml', args: GREP, ...given },
    env: { ...jobEnv(served), GITHUB_STEP_SUMMARY: summaryFile },
  });
  const upload = run.used.find((u) => u.uses.startsWith('actions/upload-artifact@'));
  assert.ok(upload, 'the report folder is uploaded');
  const uploaded = join(workspace, upload.with.path!);
  console.log(`github action, ${label}: exit ${run.code} in ${Date.now() - started} ms`);
  return { run, summary: readFileSync(summaryFile, 'utf8'), uploaded, workspace };
}

async function gitlabGate(served: Served, label: string) {
  const cwd = userRepo(served, label);
  const started = Date.now();
  const r = await runGitlabJob(GITLAB.wfmck, {
    cwd,
    env: jobEnv(served),
    // The kit as a folder `npm install` takes (a tarball or git URL in a user's pipeline).
    overrides: { WFMCK_KIT_SOURCE: KIT, WFMCK_GATE_CONFIG: 'wfmck.config.yaml', WFMCK_GATE_ARGS: GREP },
  });
  console.log(`gitlab job, ${label}: exit ${r.code} in ${Date.now() - started} ms`);
  const artifacts = GITLAB.wfmck.artifacts as { when: string; paths: string[]; reports: { junit: string } };
  assert.equal(artifacts.when, 'always', 'the report is kept when the gate fails');
  for (const p of [...artifacts.paths, artifacts.reports.junit]) assert.ok(existsSync(join(cwd, p)), `artifact ${p} was written`);
  return { ...r, summary: readFileSync(join(cwd, GITLAB.wfmck.variables.WFMCK_GATE_SUMMARY), 'utf8'), cwd };
}

// install.sh installs nothing where the kit's packages are in place; were they not, it would `npm ci` in this checkout,
// under every other process using it. So the tests stop first.
test.before(() => {
  const ls = spawnSync('npm', ['ls', '--depth=0', '--omit=dev'], { cwd: KIT, encoding: 'utf8' });
  assert.equal(ls.status, 0, `the kit's packages are not installed (npm ci first): ${ls.stdout}${ls.stderr}`);
});

const report = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;

/** The summary's counts are the report's, row by row. */
function assertCounts(summary: string, r: ConformanceReport): void {
  for (const [outcome, n] of [
    ['pass', r.summary.pass],
    ['fail', r.summary.fail],
    ['blocked', r.summary.blocked],
    ['kit error', r.summary.error],
  ] as const)
    assert.match(summary, new RegExp(`^\\| ${outcome} \\| ${n} \\|`, 'm'), outcome);
}

test(
  'a clean target: the action and the GitLab job exit 0, the summary holds the verdict and the counts',
  { timeout: 300_000 },
  async () => {
    const served = await startServe([]);
    try {
      const gh = await githubGate(served, 'clean');
      assert.equal(gh.run.code, 0, gh.run.log.slice(-4000));
      assert.equal(gh.run.outputs.gate?.['exit-code'], '0');
      const r = report(gh.uploaded);
      assert.ok(r.summary.pass > 0 && r.summary.fail === 0, 'the run judged CAP-PUT and found nothing');
      assert.match(gh.summary, /^## 🟡 wfmck: INCOMPLETE: no failure, but not every MUST was judged$/m);
      assert.match(gh.summary, /\*\*target\*\* wfm `https:\/\/127\.0\.0\.1:\d+`/, 'the named target, not the embedded default');
      assertCounts(gh.summary, r);
      assert.ok(existsSync(join(gh.uploaded, 'junit.xml')));

      const gl = await gitlabGate(served, 'gitlab-clean');
      assert.equal(gl.code, 0, gl.log.slice(-4000));
      assert.match(gl.summary, /^## 🟡 wfmck: INCOMPLETE/m);
      assertCounts(gl.summary, report(join(gl.cwd, 'wfmck-report')));
    } finally {
      await served.stop();
    }
  },
);

test('a target that breaks CAP-PUT-201: exit 1 from both, and the summary names the failed requirement', { timeout: 300_000 }, async () => {
  const served = await startServe(['--fault', 'CAP-PUT-201']);
  try {
    const gh = await githubGate(served, 'fault');
    assert.equal(gh.run.code, 1, gh.run.log.slice(-4000));
    assert.match(gh.summary, /^## ❌ wfmck: NOT CONFORMANT: 1 requirement failed, 1 of them MUST$/m);
    assert.match(gh.summary, /^\| `CAP-PUT-201` \| MUST \| failed: .*Received: 200 \| \d+ \|$/m);
    assert.ok(existsSync(join(gh.uploaded, 'conformance.json')), 'the report is uploaded when the gate fails');

    const gl = await gitlabGate(served, 'gitlab-fault');
    assert.equal(gl.code, 1, gl.log.slice(-4000));
    assert.match(gl.summary, /^\| `CAP-PUT-201` \| MUST \| failed: /m);
  } finally {
    await served.stop();
  }
});

test('a config that is not there: exit 2, and the summary says there is no verdict', { timeout: 120_000 }, async () => {
  const served = await startServe([]);
  try {
    const gh = await githubGate(served, 'no-config', { config: 'missing.yaml' });
    assert.equal(gh.run.code, 2, gh.run.log.slice(-4000));
    assert.match(gh.summary, /^## ⛔ wfmck: NO VERDICT: `wfmck run` exited 2 and wrote no report/m);
  } finally {
    await served.stop();
  }
});
