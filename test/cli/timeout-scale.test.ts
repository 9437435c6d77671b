// --timeout-scale (issue 32, item 4): one setting (flag, env, YAML) that reaches Playwright's test timeout through the
// run context, and the notice a loaded machine gets at the start of a run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveConfig } from '../../run/options/config.ts';
import { prepareRun } from '../../run/processes/global-setup.ts';
import { loadNotice } from '../../run/contract/load.ts';
import { playwrightCli } from '../../run/processes/playwright-launch.ts';
import { runWfmck } from '../support/wfmck-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('timeoutScale: by flag, env or YAML (flags win); absent by default; a factor below 1 or not a number is refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-scale-'));
  try {
    const yaml = join(dir, 'c.yaml');
    writeFileSync(yaml, 'timeoutScale: 3\n');
    assert.equal(resolveConfig([], {}, dir).timeoutScale, undefined);
    assert.equal(resolveConfig(['--config', yaml], {}, dir).timeoutScale, 3);
    assert.equal(resolveConfig(['--config', yaml], { WFMCK_TIMEOUT_SCALE: '1.5' }, dir).timeoutScale, 1.5);
    assert.equal(resolveConfig(['--config', yaml, '--timeout-scale', '2'], { WFMCK_TIMEOUT_SCALE: '1.5' }, dir).timeoutScale, 2);
    for (const bad of ['0.5', 'x', '-2', '1e3'])
      assert.throws(() => resolveConfig(['--timeout-scale', bad], {}, dir), /--timeout-scale: must be a number from 1 to 100/, bad);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--timeout-scale 2 doubles the test timeout Playwright runs the suites with (config -> run context -> playwright.config.ts)', async () => {
  const out = mkdtempSync(join(tmpdir(), 'wfmck-scale-run-'));
  try {
    // A named target: nothing is started, only the context is written.
    const config = resolveConfig(['--wfm', 'https://127.0.0.1:9', '--timeout-scale', '2', '--out', out], {}, out);
    const prepared = await prepareRun(config);
    await prepared.close();
    assert.equal(prepared.context.timeoutScale, 2);
    assert.equal(resolveConfig(['--config', join(out, 'replay.yaml')], {}, out).timeoutScale, 2, 'a replay keeps it');
    const timeoutOf = (contextFile: string) => {
      const child = spawnSync(
        process.execPath,
        [playwrightCli(), 'test', '--config', join(ROOT, 'playwright.config.ts'), '--list', '--reporter=json', '--grep', 'CAP-PUT-201'],
        { cwd: ROOT, env: { ...process.env, WFMCK_CONTEXT: contextFile }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      );
      const report = JSON.parse(child.stdout) as { config: { projects: { timeout: number }[] } };
      return report.config.projects[0]!.timeout;
    };
    assert.equal(timeoutOf(prepared.contextFile), 120_000);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('run --help shows --timeout-scale with its env name and YAML key', async () => {
  const r = await runWfmck(['run', '--help']);
  assert.match(r.stdout, /^ {2}--timeout-scale N +WFMCK_TIMEOUT_SCALE +timeoutScale$/m);
});

test('a loaded machine gets a notice naming the load and a --timeout-scale; an idle one, or a run that scales already, none', () => {
  assert.equal(
    loadNotice(undefined, 14.2, 2),
    'notice: load average 14.2 on 2 cores: checks may run out of time (each such check is a kit error, WFMCK_E_SLOW_RUN, not a finding); --timeout-scale 4 (WFMCK_TIMEOUT_SCALE) gives them 4 times their time',
  );
  assert.match(loadNotice(undefined, 5, 2)!, /--timeout-scale 2 /);
  assert.match(loadNotice(undefined, 400, 2)!, /--timeout-scale 10 /);
  assert.equal(loadNotice(undefined, 3.9, 2), undefined);
  assert.equal(loadNotice(2, 14.2, 2), undefined);
});
