// The kit as a user gets it: `npm pack`, installed into a project of theirs, `npx wfmck run` there. Node and
// Playwright leave TypeScript under node_modules untransformed, so this is the only test that sees the kit load from
// node_modules/wfmck; it also holds that everything the run writes lands in the user's folder, never in the package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The environment without npm's own variables: under `npm test` they would point the nested npm at this repo. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

function sh(cmd: string, args: string[], cwd: string, timeout: number): SpawnSyncReturns<string> & { ms: number } {
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024 });
  return Object.assign(r, { ms: Date.now() - t0 });
}

function said(r: SpawnSyncReturns<string>): string {
  return `exit ${r.status}\nstdout:\n${r.stdout.slice(-4000)}\nstderr:\n${r.stderr.slice(-4000)}`;
}

/** Every file under `dir` with its size and mtime: a run that writes into the package changes this. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(e.parentPath, e.name);
    const s = statSync(path);
    files.set(relative(dir, path), e.isDirectory() ? 'dir' : `${s.size} ${s.mtimeMs}`);
  }
  return files;
}

test('the packed kit, installed in a fresh project, certifies the embedded default there', { timeout: 400_000 }, (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'wfmck-packed-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));

  const pack = sh('npm', ['pack', '--json', '--pack-destination', tmp], root, 60_000);
  assert.equal(pack.status, 0, said(pack));
  const [packed] = JSON.parse(pack.stdout) as [{ filename: string; size: number; files: { path: string }[] }];
  // Only what a user runs: no kit tests, benchmarks or earlier runs' reports.
  const strays = packed.files.map((f) => f.path).filter((p) => /^(test|bench|\.ci|reports\/out)\//.test(p));
  assert.deepEqual(strays, [], 'files the package should not ship');

  const project = join(tmp, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', version: '1.0.0', private: true }));
  const install = sh(
    'npm',
    ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', join(tmp, packed.filename)],
    project,
    180_000,
  );
  assert.equal(install.status, 0, said(install));
  const kit = join(project, 'node_modules', 'wfmck');
  const before = snapshot(kit);

  const doctor = sh('npx', ['wfmck', 'doctor'], project, 60_000);
  assert.equal(doctor.status, 0, said(doctor));

  const run = sh('npx', ['wfmck', 'run'], project, 300_000);
  t.diagnostic(`pack ${pack.ms} ms (${packed.size} bytes), install ${install.ms} ms, run ${run.ms} ms`);
  assert.equal(run.status, 0, said(run));
  const outs = readdirSync(join(project, 'reports', 'out'));
  assert.equal(outs.length, 1, `one run folder in the project: ${outs.join(', ')}`);
  assert.ok(existsSync(join(project, 'reports', 'out', outs[0]!, 'conformance.json')), said(run));
  // Each report file the console names is there (a run that wrote none must not list them).
  const listed = [...run.stdout.matchAll(/^ {2}[A-Za-z ]+?\s{2,}(reports\/out\/\S+)$/gm)].map((m) => m[1]!);
  assert.ok(listed.length >= 4, `the console names the report files:\n${run.stdout}`);
  for (const file of listed) assert.ok(existsSync(join(project, file)), `listed but not written: ${file}`);
  assert.deepEqual(snapshot(kit), before, 'the run wrote into node_modules/wfmck');
});
