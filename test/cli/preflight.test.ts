// Before any test runs: every hook resolves to an executable, every key and certificate parses, every target accepts a
// connection. A hook that breaks mid-run is a kit error (exit 2), its stderr in the report with keys taken out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandWord, connectionProblem, hookProblem } from '../../cli/preflight.ts';
import { redactSecrets } from '../../run/contract/outcomes.ts';
import { createRootCa } from '../../protocol/pki.ts';
import { runWfmck } from '../support/wfmck-cli.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'wfmck-preflight-'));

test('commandWord: the first word a shell runs, after assignments, without quotes', () => {
  assert.equal(commandWord('./hooks/assign.sh --x'), './hooks/assign.sh');
  assert.equal(commandWord('TOKEN=abc FOO="a b" node hook.js'), 'node');
  assert.equal(commandWord(`'/opt/my hooks/a.sh' arg`), '/opt/my hooks/a.sh');
  assert.equal(commandWord('   '), undefined);
});

test('hookProblem: a missing or non-executable file, or a name not on PATH; builtins and PATH commands run', () => {
  const dir = tmp();
  writeFileSync(join(dir, 'plain.sh'), '#!/bin/sh\necho {}\n');
  writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\necho {}\n');
  chmodSync(join(dir, 'run.sh'), 0o755);
  assert.match(hookProblem('./missing.sh', dir)!, /missing\.sh, which does not exist/);
  assert.match(hookProblem('./plain.sh', dir)!, /not executable \(chmod \+x\)/);
  assert.equal(hookProblem('./run.sh --flag', dir), undefined, 'relative to the folder of the YAML that names it');
  assert.equal(hookProblem('node -e 1', dir), undefined);
  assert.equal(hookProblem('echo {}', dir), undefined, 'a shell builtin');
  assert.match(hookProblem('wfmck-no-such-command-xyz', dir)!, /not on PATH/);
});

test('redactSecrets: PEM blocks, bearer tokens, assignments and long base64 are taken out of hook output', () => {
  const key = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----';
  const out = redactSecrets(`got ${key}\nAuthorization: Bearer abc.def.ghi\ntoken=s3cr3t password: hunter2\n${'A'.repeat(80)}`);
  assert.doesNotMatch(out, /BEGIN PRIVATE KEY|MIGHAgEA|abc\.def|s3cr3t|hunter2|AAAAAAAAAAAAAAAAAAAA/);
  assert.match(out, /\[private key removed\]/);
});

test('connectionProblem: refused, no TLS trust, or reachable; what the server decides after the handshake is not a problem', async (t) => {
  const server = createServer((s) => s.end());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => server.close());
  const port = (server.address() as { port: number }).port;
  assert.equal(await connectionProblem(new URL(`http://127.0.0.1:${port}`), []), undefined);
  server.close();
  assert.equal(await connectionProblem(new URL(`http://127.0.0.1:${port}`), []), 'connection refused');
});

test(
  'a hook file that does not exist: exit 2 naming it, before Playwright starts or any report is written',
  { timeout: 30_000 },
  async () => {
    const dir = tmp();
    const out = join(dir, 'out');
    const started = Date.now();
    const r = await runWfmck(['run', '--persona', 'device', '--out', out], { WFMCK_HOOK_START_CLIENT: join(dir, 'no-such-hook.sh') });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /hooks\.startClient: ".*no-such-hook\.sh" runs .*no-such-hook\.sh, which does not exist/);
    assert.equal(existsSync(out), false, 'nothing ran');
    assert.ok(Date.now() - started < 20_000);
  },
);

test('a device CA key that is not the key of its certificate: exit 2 naming both files', { timeout: 30_000 }, async () => {
  const dir = tmp();
  const [a, b] = [await createRootCa('a'), await createRootCa('b')];
  writeFileSync(join(dir, 'ca.pem'), a.certPem);
  writeFileSync(join(dir, 'other.key'), b.keyPem);
  const r = await runWfmck(['run', '--out', join(dir, 'out')], {
    WFMCK_DEVICE_CA_CERT: join(dir, 'ca.pem'),
    WFMCK_DEVICE_CA_KEY: join(dir, 'other.key'),
  });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /deviceCa\.keyFile: .*other\.key is not the key of .*ca\.pem/);
});

test(
  'a startClient hook that fails mid-run: every check it serves is a kit error, exit 2, and no key it echoed reaches a report',
  { timeout: 120_000 },
  async () => {
    const dir = tmp();
    const hook = join(dir, 'start.sh');
    // A broken hook of the kind the issue met: it prints its input (the client's key) to stderr and exits 1.
    writeFileSync(hook, '#!/bin/sh\ncat >&2\nexit 1\n');
    chmodSync(hook, 0o755);
    const out = join(dir, 'out');
    const r = await runWfmck(['run', '--persona', 'device', '--out', out, '--grep', 'CAP-FIRST-EXCHANGE'], {
      WFMCK_HOOK_START_CLIENT: hook,
    });
    assert.equal(r.code, 2, r.stdout.slice(-2000) + r.stderr);
    assert.match(r.stdout, /^wfmck run: NO VERDICT: the kit broke on 1 requirement; .* 1 kit error$/m);
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as {
      requirements: { id: string; status: string; tests: { errorCode?: string }[] }[];
    };
    const first = report.requirements.find((q) => q.id === 'CAP-FIRST-EXCHANGE')!;
    assert.deepEqual([first.status, first.tests[0]!.errorCode], ['error', 'WFMCK_E_HOOK']);
    for (const file of ['conformance.json', 'conformance.html', 'junit.xml']) {
      const text = readFileSync(join(out, file), 'utf8');
      assert.doesNotMatch(text, /BEGIN (EC |)PRIVATE KEY|BEGIN CERTIFICATE/, `${file} carries no PEM the hook echoed`);
    }
    assert.match(readFileSync(join(out, 'conformance.json'), 'utf8'), /\[private key removed\]/, 'the evidence says what was taken out');
  },
);
