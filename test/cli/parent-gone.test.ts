// A long-running command ends when the process that started it goes away, as `npx wfmck serve &` then `kill $!` needs
// (npm ends, its child is left to init): here a shell that starts wfmck is killed with SIGKILL, which it cannot pass on.
// A command started in a session of its own (setsid) was detached on purpose and keeps running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WFMCK_BIN } from '../support/wfmck-cli.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Alive and not a zombie (an orphan's end is reaped by whatever adopted it, perhaps not at once). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}

/** `sh -c 'PREFIX node wfmck ARGS & echo $!; wait'`: the shell is wfmck's parent; resolves with wfmck's pid. */
async function throughShell(args: string[], prefix = '') {
  const quoted = [process.execPath, WFMCK_BIN, ...args].map((a) => `'${a}'`).join(' ');
  const shell = spawn('sh', ['-c', `${prefix}${quoted} & echo "pid $!"; wait`], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  shell.stdout.on('data', (d) => (out.stdout += d));
  shell.stderr.on('data', (d) => (out.stderr += d));
  while (!/^pid \d+$/m.test(out.stdout)) await sleep(50);
  return { shell, out, pid: Number(/^pid (\d+)$/m.exec(out.stdout)![1]) };
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (alive(pid) && Date.now() < deadline) await sleep(100);
  return !alive(pid);
}

test('serve ends cleanly within seconds of the process that started it being killed', { timeout: 60_000 }, async () => {
  const { shell, out, pid } = await throughShell(['serve']);
  while (!out.stdout.includes('"wfm"')) await sleep(50);
  const info = JSON.parse(out.stdout.split('\n').find((l) => l.startsWith('{'))!) as { pid: number; caFile: string };
  assert.equal(info.pid, pid);
  shell.kill('SIGKILL');
  assert.ok(await gone(pid, 5_000), `serve (pid ${pid}) still running 5 s after its parent died`);
  assert.match(out.stderr, new RegExp(`wfmck serve: the process that started it \\(pid ${shell.pid}\\) is gone; stopping as on SIGTERM`));
  assert.equal(existsSync(info.caFile), false, 'stopped as on SIGTERM: its temp folder of CA files is removed');
});

test('serve started with setsid (detached on purpose) outlives the shell that started it', { timeout: 60_000 }, async () => {
  const { shell, out, pid } = await throughShell(['serve'], 'setsid ');
  try {
    while (!out.stdout.includes('"wfm"')) await sleep(50);
    shell.kill('SIGKILL');
    await sleep(3_000);
    assert.ok(alive(pid), 'a serve in a session of its own keeps running');
  } finally {
    process.kill(pid, 'SIGTERM');
  }
  assert.ok(await gone(pid, 10_000));
});

test('fleet ends within seconds of the process that started it being killed, its summary written', { timeout: 120_000 }, async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'wfmck-parent-gone-')), 'out');
  const { shell, out, pid } = await throughShell(['fleet', '--devices', '50', '--duration', '600', '--out', dir]);
  while (!/onboarded [1-9]/.test(out.stderr)) await sleep(100);
  shell.kill('SIGKILL');
  assert.ok(await gone(pid, 10_000), `fleet (pid ${pid}) still running 10 s after its parent died`);
  const summary = JSON.parse(readFileSync(join(dir, 'fleet-summary.json'), 'utf8')) as { interrupted: boolean };
  assert.equal(summary.interrupted, true);
});
