// Attended mode of the device persona (`wfmck run --persona device --attend`): no startClient hook; an operator starts
// each client from the folder the kit writes for its check. Here the operator is a loop that runs `wfmck client` on
// each new folder, as a person in a second terminal would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = join(fileURLToPath(new URL('../../', import.meta.url)), 'bin', 'wfmck.mjs');
const outDir = () => join(mkdtempSync(join(tmpdir(), 'wfmck-attend-')), 'out');

interface Report {
  clientUnderTest?: string;
  summary: { verdict: string };
  requirements: { id: string; status: string; reason?: string }[];
}

function wfmck(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return { child, done: once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr })) };
}

test(
  "attended: each check writes its client's folder and waits; the operator's client connects and is judged; `done` stops it",
  { timeout: 240_000 },
  async () => {
    const out = outDir();
    const run = wfmck([
      'run',
      '--persona',
      'device',
      '--attend',
      '--attend-timeout',
      '60',
      '--grep',
      'CAP-FIRST-EXCHANGE after|ONB-SIGNED the onboarding|GW-OPAQUE-ONE-DOCUMENT ',
      '--seed',
      '5',
      '--out',
      out,
    ]);
    const clients = new Map<string, ReturnType<typeof wfmck>>();
    let finished = false;
    void run.done.then(() => (finished = true));
    const attendDir = join(out, 'attend');
    while (!finished) {
      for (const name of existsSync(attendDir) ? readdirSync(attendDir) : []) {
        const folder = join(attendDir, name);
        if (clients.has(folder) || !statSync(folder).isDirectory() || !existsSync(join(folder, 'client.json'))) continue;
        clients.set(folder, wfmck(['client', folder]));
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const r = await run.done;
    const stopped = await Promise.all([...clients.values()].map((c) => c.done));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /attended mode: for each check, start your device client by hand/);
    assert.match(r.stdout + r.stderr, /wfmck attend: start the client under test for: CAP-FIRST-EXCHANGE/);
    assert.equal(clients.size, 3, 'one client folder per check');
    for (const [folder, c] of clients) {
      const files = ['answer.json', 'ca.pem', 'cert.pem', 'client.json', 'done', 'key.pem', 'started'];
      assert.deepEqual(
        files.filter((f) => existsSync(join(folder, f))),
        files,
        `${folder} holds the client's files, its answer, started and done`,
      );
      assert.equal(statSync(join(folder, 'key.pem')).mode & 0o077, 0, 'the key is readable by its owner only');
      assert.ok(
        stopped.every((s) => s.code === 0),
        'each client ran and stopped cleanly',
      );
      assert.match((await c.done).stdout, /stopped \(its check is done\)/);
    }
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as Report;
    const status = (id: string) => report.requirements.find((q) => q.id === id)?.status;
    assert.equal(report.clientUnderTest, 'operator', 'the report says the client was started by hand');
    // The opaque gateway's answer.json (written by `wfmck client`, as an operator may) is what lets its check run.
    assert.deepEqual([status('CAP-FIRST-EXCHANGE'), status('ONB-SIGNED'), status('GW-OPAQUE-ONE-DOCUMENT')], ['pass', 'pass', 'pass']);
  },
);

test('attended: a check whose client never connects is skipped with that reason, and the run ends', { timeout: 120_000 }, async () => {
  const out = outDir();
  const r = await wfmck([
    'run',
    '--persona',
    'device',
    '--attend',
    '--attend-timeout',
    '2',
    '--grep',
    'CAP-FIRST-EXCHANGE after',
    '--seed',
    '5',
    '--out',
    out,
  ]).done;
  const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as Report;
  const first = report.requirements.find((q) => q.id === 'CAP-FIRST-EXCHANGE');
  assert.equal(first?.status, 'skip', r.stdout + r.stderr);
  assert.match(first?.reason ?? '', /attended mode: no client connected with the credentials of .*001-cap-first-exchange.* within 2 s/);
  assert.ok(existsSync(join(out, 'attend', readdirSync(join(out, 'attend'))[0]!, 'done')), 'the abandoned folder says so');
});

test(
  "--attend-exec runs the operator's command for each check's folder ({folder} shell-quoted), prefixes its output and notes its exit",
  { timeout: 240_000 },
  async () => {
    // A space in the path: {folder} must reach the command as one word.
    const out = join(mkdtempSync(join(tmpdir(), 'wfmck-attend-')), 'out dir');
    const command = `${process.execPath} ${bin} client {folder}`;
    const r = await wfmck([
      'run',
      '--persona',
      'device',
      '--attend-exec',
      command,
      '--attend-timeout',
      '60',
      '--grep',
      'CAP-FIRST-EXCHANGE after|ONB-SIGNED the onboarding|GW-OPAQUE-ONE-DOCUMENT ',
      '--seed',
      '5',
      '--out',
      out,
    ]).done;
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /attended mode: for each check, the kit runs .* client \{folder\} with \{folder\} the check's folder/);
    const folders = readdirSync(join(out, 'attend')).sort();
    assert.equal(folders.length, 3, 'one folder per check');
    for (const name of folders) {
      const n = name.slice(0, 3);
      assert.ok(
        r.stdout.includes(`[attend ${n}] ${name}: ${command.replace('{folder}', `'${join(out, 'attend', name)}'`)}`),
        `the command for ${name}, its folder quoted:\n${r.stdout}`,
      );
      assert.match(r.stdout, new RegExp(`\\[attend ${n}\\] wfmck client: .* talking to https://`), 'its output, behind its number');
      assert.match(r.stdout, new RegExp(`\\[attend ${n}\\] wfmck client: stopped \\(its check is done\\)`));
      assert.match(r.stdout, new RegExp(`\\[attend ${n}\\] exited 0`));
      assert.ok(existsSync(join(out, 'attend', name, 'done')));
    }
    assert.match(r.stdout, /wfmck run: attend-exec: 3 commands ran, 3 exited 0\n/);
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as Report;
    const status = (id: string) => report.requirements.find((q) => q.id === id)?.status;
    assert.equal(report.clientUnderTest, 'operator');
    assert.deepEqual([status('CAP-FIRST-EXCHANGE'), status('ONB-SIGNED'), status('GW-OPAQUE-ONE-DOCUMENT')], ['pass', 'pass', 'pass']);
    assert.match(readFileSync(join(out, 'replay.yaml'), 'utf8'), /attendExec: .* client \{folder\}/, 'a replay runs the same command');
  },
);
