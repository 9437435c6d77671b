// The documentation's examples, run or parsed exactly as written: they cannot drift from the kit. The signed-curl
// example lives in docs/reference.md; the wfmck.config.yaml example in the README.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('docs/reference.md: a signed curl PUT of capabilities gets 201, the same PUT again 200', { timeout: 120_000 }, async () => {
  const reference = await readFile(new URL('docs/reference.md', `file://${root}`), 'utf8');
  const m = /<!-- example:signed-curl -->\s*```sh\n([\s\S]*?)```/.exec(reference);
  assert.ok(m, 'docs/reference.md has the signed-curl example block');
  // The example writes .wfmck/ where it runs: a folder of its own, never the user's checkout (whose .wfmck it would
  // remove). It sees the kit as a checkout does: package.json (npx finds wfmck's bin by it), bin, node_modules, fixtures.
  const cwd = await mkdtemp(join(tmpdir(), 'wfmck-readme-'));
  for (const name of ['package.json', 'bin', 'node_modules', 'fixtures']) await symlink(join(root, name), join(cwd, name));
  // Whatever happens, the background server must not outlive the test (npx does not forward signals: use its pid).
  const stop = `kill "$(node -p 'require("./.wfmck/serve.json").pid' 2>/dev/null)" 2>/dev/null || true`;
  const script = `set -euo pipefail\ntrap '${stop.replace(/'/g, `'\\''`)}' EXIT\n${m[1]}`;
  const run = spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8', timeout: 110_000 });
  const statuses = run.stdout.split('\n').filter((l) => /^\d{3}$/.test(l));
  assert.deepEqual(statuses, ['201', '201', '200'], `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
  assert.equal(run.status, 0, run.stderr);
  await rm(cwd, { recursive: true, force: true });
});

test('README: every key of the wfmck.config.yaml example is a setting `wfmck run` knows', async () => {
  const { parse } = await import('yaml');
  const { FIELDS } = await import('../../run/options/config.ts');
  const readme = await readFile(new URL('README.md', `file://${root}`), 'utf8');
  const m = /```yaml\n([\s\S]*?)```/.exec(readme);
  assert.ok(m, 'README has a YAML example');
  const known = new Set(FIELDS.map((f) => f.key));
  const keys: string[] = [];
  const walk = (node: unknown, prefix: string) => {
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (known.has(key)) keys.push(key);
      else if (v && typeof v === 'object' && !Array.isArray(v)) walk(v, key);
      else assert.fail(`README YAML key "${key}" is not a setting of run/options/config.ts`);
    }
  };
  walk(parse(m[1]!), '');
  assert.ok(keys.length >= 5);
});

test(
  'README: the hook-wiring example yields a configuration doctor passes, serve-admin.sh and both its variables included',
  { timeout: 120_000 },
  async () => {
    const readme = await readFile(new URL('README.md', `file://${root}`), 'utf8');
    const m = /<!-- example:serve-hooks -->\s*```sh\n([\s\S]*?)```/.exec(readme);
    assert.ok(m, 'README has the serve-hooks example block');
    // The whole run takes minutes: here it only lists its checks (which parses every flag), and doctor judges the wiring.
    const runLine = /^npx wfmck run (.*?)\s+#.*$/m;
    assert.match(m[1]!, runLine);
    const block = m[1]!.replace(runLine, 'npx wfmck run $1 --list > /dev/null\nnpx wfmck doctor --config wfmck.config.yaml');
    const cwd = await mkdtemp(join(tmpdir(), 'wfmck-readme-'));
    for (const name of ['package.json', 'bin', 'node_modules', 'examples']) await symlink(join(root, name), join(cwd, name));
    const stop = `kill "$(node -p 'require("./.wfmck.json").pid' 2>/dev/null)" 2>/dev/null || true`;
    const script = `set -euo pipefail\ntrap '${stop.replace(/'/g, `'\\''`)}' EXIT\n${block}`;
    // The two variables come from the example's own export, never from the shell that runs the tests.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WFMCK_ADMIN')));
    const run = spawnSync('bash', ['-c', script], { cwd, env, encoding: 'utf8', timeout: 110_000 });
    assert.equal(run.status, 0, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
    assert.match(run.stdout, /^ok {4}hooks\.assignDeployment: bash -n, 2 required variables: all good/m);
    assert.match(run.stdout, /^wfmck doctor: all good$/m);
    await rm(cwd, { recursive: true, force: true });
  },
);
