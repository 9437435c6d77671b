// `wfmck run --out DIR` where DIR cannot take the reports (issue 32, symptom 6): a full disk or a folder the kit may
// not write is named with its path and exit 2, before the run when it can be seen then, and no file is claimed that
// was not written (it was: "conformance.json is not JSON", then the paths of files never written).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { WFMCK_BIN, runWfmck } from '../support/wfmck-cli.ts';
import { mountTinyTmpfs } from '../support/tiny-tmpfs.ts';

const ONE_CHECK = ['--grep', 'CAP-PUT-201 PUT for a deviceId'];
/** The lines that claim a report file (cli/run.ts printPaths). */
const CLAIMS = /^ {2}(requirement report|requirement matrix|JUnit|signature|Playwright report) /m;

test(
  '--out under a regular file: ENOTDIR and the path, exit 2 in seconds, nothing run and nothing claimed',
  { timeout: 60_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-out-file-'));
    try {
      writeFileSync(join(dir, 'a-file'), '');
      const started = Date.now();
      const r = await runWfmck(['run', ...ONE_CHECK, '--out', join(dir, 'a-file', 'out')]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.ok(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
      assert.match(r.stderr, /--out: .*a-file\/out: cannot create the folder \(ENOTDIR: not a directory\)/);
      assert.doesNotMatch(r.stdout, /embedded reference services/, 'the run never started');
      assert.doesNotMatch(r.stdout, CLAIMS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('--out a folder the user may not write (0555, run as nobody): EACCES and the path, exit 2', { timeout: 60_000 }, async (t) => {
  if (process.getuid?.() !== 0) return t.skip('needs root to run the CLI as another user');
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-out-eacces-'));
  try {
    chmodSync(dir, 0o755);
    const out = join(dir, 'out');
    mkdirSync(out, { mode: 0o555 });
    chmodSync(out, 0o555);
    const child = spawn(process.execPath, [WFMCK_BIN, 'run', ...ONE_CHECK, '--out', out], {
      uid: 65534,
      gid: 65534,
      env: { ...process.env, HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 2, stdout + stderr);
    assert.match(stderr, /--out: .*\/out: cannot write the reports there \(EACCES: permission denied\)/);
    assert.doesNotMatch(stdout, CLAIMS);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--out on a 300 KiB tmpfs (the issue's case): ENOSPC and the path before the run, exit 2", { timeout: 60_000 }, async (t) => {
  const fs = mountTinyTmpfs('300k');
  if (typeof fs === 'string') return t.skip(fs);
  try {
    const r = await runWfmck(['run', ...ONE_CHECK, '--out', join(fs.dir, 'out')]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /--out: .*\/out: cannot write the reports there \(ENOSPC: no space left on device\)/);
    assert.doesNotMatch(r.stdout, CLAIMS);
  } finally {
    fs.close();
  }
});

test(
  'the disk fills during the run: ENOSPC named with the file, exit 2, no conformance.json, nothing claimed',
  { timeout: 180_000 },
  async (t) => {
    const fs = mountTinyTmpfs('2m');
    if (typeof fs === 'string') return t.skip(fs);
    try {
      const out = join(fs.dir, 'out');
      const child = spawn(process.execPath, [WFMCK_BIN, 'run', ...ONE_CHECK, '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = once(child, 'exit') as Promise<[number | null]>;
      const lines: string[] = [];
      for await (const line of createInterface({ input: child.stdout })) {
        lines.push(line);
        // The pre-flight passed and the run has begun: now the disk fills up, as it would under a long run.
        if (/^wfmck run: embedded reference services/.test(line)) {
          try {
            writeFileSync(join(fs.dir, 'filler'), Buffer.alloc(4 * 1024 * 1024));
          } catch {
            // ENOSPC once it is full: what we wanted.
          }
        }
      }
      const [code] = await exited;
      const stdout = lines.join('\n');
      assert.equal(code, 2, stdout + stderr);
      assert.match(
        stderr,
        /wfmck: the report was not written: cannot write .*\/out\/conformance\.(html|json): ENOSPC: no space left on device/,
      );
      assert.match(stdout, /no verdict: the requirement reporter wrote no .*conformance\.json: .*ENOSPC/);
      assert.doesNotMatch(stdout, /is not JSON/);
      assert.doesNotMatch(stdout, CLAIMS);
      assert.equal(existsSync(join(out, 'conformance.json')), false);
      assert.deepEqual(
        readdirSync(out).filter((f) => f.endsWith('.tmp')),
        [],
      );
    } finally {
      fs.close();
    }
  },
);
