// `wfmck fleet` refuses what it must not run, with exit 2 and a one-line reason, before any device starts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { unusedLoopbackPort } from '../support/ports.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRootCa } from '../../protocol/pki.ts';

const bin = fileURLToPath(new URL('../../bin/wfmck.mjs', import.meta.url));

async function fleet(...args: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [bin, 'fleet', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => (stdout += d));
  const [code] = await once(child, 'exit');
  return { code, stderr, stdout };
}

test('fleet --help prints the options and exits 0', async () => {
  const r = await fleet('--help');
  assert.equal(r.code, 0);
  assert.match(r.stdout, /--see-thru-gateways N/);
  // Per-device misbehaviour is --misbehaviour, `misbehaviour` in a fleet file; their old spelling (--faults, `faults`) is
  // named in its help, and its defaults come from the fleet's own.
  assert.match(
    r.stdout,
    /--misbehaviour LIST +misbehaviour\n +per-device misbehaviour mix[^\n]*\n?[^\n]*--faults and the file key\s+faults, its old spelling, still work/,
  );
  assert.match(r.stdout, /--devices N +devices\n +plain devices \(default 10\)/);
});

test('fleet takes a --wfm off loopback with one notice before its first connection (the name pinned to a closed loopback port)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-named-'));
  const ca = await createRootCa('test device CA');
  await writeFile(join(dir, 'ca.pem'), ca.certPem);
  await writeFile(join(dir, 'ca.key'), ca.keyPem);
  const port = await unusedLoopbackPort();
  const r = await fleet(
    ...['--wfm', `https://wfm.example.test:${port}`, '--resolve', `wfm.example.test:${port}:127.0.0.1`],
    ...['--device-ca-cert', join(dir, 'ca.pem'), '--device-ca-key', join(dir, 'ca.key')],
  );
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /^wfmck fleet: notice: wfm\.example\.test is not on loopback: the kit sends hostile inputs .* and load there; name only services you may test\n.*unreachable target: WFM https:\/\/wfm\.example\.test:\d+: ECONNREFUSED/,
  );
  assert.equal(r.stderr.match(/notice:/g)?.length, 1);
});

test('fleet exits 2 on bad flags, a bad fleet file, a missing device CA, and an unreachable target', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-cli-'));
  const file = join(dir, 'fleet.yaml');
  await writeFile(file, 'devices: 3\nchildern: 2\n');
  const port = await unusedLoopbackPort();
  const ca = await createRootCa('test device CA');
  await writeFile(join(dir, 'ca.pem'), ca.certPem);
  await writeFile(join(dir, 'ca.key'), ca.keyPem);
  const cases: [string[], RegExp][] = [
    [['--devices', 'lots'], /--devices: expected a number/],
    [['--shard', '0/2'], /--shard: expected i\/n/],
    [['--faults', 'meltdown=0.1'], /--faults: unknown fault "meltdown"/],
    [['--misbehaviour', 'meltdown=0.1'], /--misbehaviour: unknown fault "meltdown"/],
    [['--frobnicate'], /^wfmck fleet: --frobnicate: unknown option\n/],
    [['--heap-growth', '-5'], /--heap-growth: must be a whole number of percent from 0 to 1000, not "-5"/],
    [['--heap-growth', '2.5'], /--heap-growth: must be a whole number of percent/],
    [['--fleet-file', file], /key "childern" is not a fleet setting/],
    [['--wfm', `https://127.0.0.1:${port}`], /needs --device-ca-cert and --device-ca-key/],
    [
      ['--wfm', `https://127.0.0.1:${port}`, '--device-ca-cert', join(dir, 'none.pem'), '--device-ca-key', join(dir, 'none.key')],
      /--device-ca-cert: no such file .*none\.pem/,
    ],
    [
      ['--wfm', `https://127.0.0.1:${port}`, '--device-ca-cert', join(dir, 'ca.pem'), '--device-ca-key', join(dir, 'ca.key')],
      /unreachable target: WFM .*ECONNREFUSED/,
    ],
  ];
  for (const [args, message] of cases) {
    const r = await fleet(...args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, message, args.join(' '));
  }
});
