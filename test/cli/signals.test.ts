// `wfmck run` and signals: SIGINT, SIGTERM and SIGHUP stop the run gracefully and leave conformance.json with
// interrupted: true (exit 130, 143, 129); after SIGKILL of wfmck no Playwright process is left (the watchdog pipe).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WFMCK_BIN } from '../support/wfmck-cli.ts';

/** Starts `wfmck run` and resolves once Playwright says it is running tests. */
async function started(out: string) {
  const child = spawn(process.execPath, [WFMCK_BIN, 'run', '--out', out, '--seed', '3'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stdout += d));
  const deadline = Date.now() + 60_000;
  // The compact console's first line: Playwright has collected the checks and is running them.
  while (!/wfmck: \d+ checks in \d+ spec files/.test(stdout) && Date.now() < deadline && child.exitCode === null)
    await new Promise((r) => setTimeout(r, 100));
  assert.match(stdout, /wfmck: \d+ checks in \d+ spec files/, stdout);
  // A few tests end first, so the partial report has something in it.
  await new Promise((r) => setTimeout(r, 4000));
  return { child, output: () => stdout };
}

/** Pids of processes whose environment names `marker` (every Playwright process of a run carries its WFMCK_CONTEXT). */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .flatMap((p) => {
      try {
        return readFileSync(`/proc/${p}/environ`, 'latin1').includes(marker) ? [Number(p)] : [];
      } catch {
        return [];
      }
    });
}

for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGHUP', 129],
  ['SIGINT', 130],
] as const) {
  test(
    `${signal} during wfmck run: exit ${code}, conformance.json written with interrupted: true, no process left`,
    { timeout: 120_000 },
    async () => {
      const out = join(mkdtempSync(join(tmpdir(), 'wfmck-signal-')), 'out');
      const { child, output } = await started(out);
      child.kill(signal);
      const [exit] = (await once(child, 'exit')) as [number | null];
      assert.equal(exit, code, output());
      const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as {
        interrupted: boolean;
        requirements: { tests: unknown[] }[];
      };
      assert.equal(report.interrupted, true);
      assert.ok(existsSync(join(out, 'conformance.html')) && existsSync(join(out, 'junit.xml')));
      assert.match(output(), new RegExp(`interrupted \\(${signal}\\)`));
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(processesWith(join(out, 'run-context.json')), [], 'no Playwright process outlives wfmck run');
    },
  );
}

test(
  'SIGKILL of wfmck run: the Playwright runner and its workers die with it (the watchdog pipe closes)',
  { timeout: 120_000 },
  async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'wfmck-signal-')), 'out');
    const marker = join(out, 'run-context.json');
    const { child } = await started(out);
    assert.ok(processesWith(marker).length >= 2, 'the runner and a worker are running');
    child.kill('SIGKILL');
    await once(child, 'exit');
    const deadline = Date.now() + 10_000;
    while (processesWith(marker).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(processesWith(marker), [], 'every Playwright process of the run is gone within 10 s');
  },
);
