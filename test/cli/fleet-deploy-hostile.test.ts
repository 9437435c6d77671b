// `wfmck fleet --wfm` at a server that accepts TCP and never answers: the pre-flight TCP probe passes (the target is
// reachable, so this is not exit 2), every device times out, and the run exits 1 within its timeouts, summary written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hangServer } from '../../scripted/hostile-servers.ts';
import { createRootCa } from '../../protocol/pki.ts';

const bin = fileURLToPath(new URL('../../bin/wfmck.mjs', import.meta.url));

test(
  'fleet against a hanging WFM exits 1 within its timeout and lists WFMCK_E_TIMEOUT with the exchange',
  { timeout: 120_000 },
  async () => {
    const server = await hangServer();
    const dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-hang-'));
    const ca = await createRootCa('cli hang test device CA');
    await writeFile(join(dir, 'device-ca.pem'), ca.certPem);
    await writeFile(join(dir, 'device-ca.key'), ca.keyPem);
    const wfm = server.url.replace('http:', 'https:');
    try {
      const began = performance.now();
      const child = spawn(
        process.execPath,
        [
          bin,
          'fleet',
          '--wfm',
          wfm,
          '--device-ca-cert',
          join(dir, 'device-ca.pem'),
          '--device-ca-key',
          join(dir, 'device-ca.key'),
          '--devices',
          '5',
          '--duration',
          '0',
          '--timeout',
          '500',
          '--out',
          dir,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      const [code] = await once(child, 'exit');
      const elapsed = performance.now() - began;
      assert.equal(code, 1, output);
      // Process start and tsx included; the devices themselves give up after 3 × 3 × 500 ms at most.
      assert.ok(elapsed < 30_000, `exited after ${Math.round(elapsed)} ms`);
      assert.match(output, /^FAIL 0\/5 devices reporting/m);
      const summary = JSON.parse(await readFile(join(dir, 'fleet-summary.json'), 'utf8'));
      assert.equal(summary.passed, false);
      assert.equal(summary.spec.timeout, 500);
      assert.deepEqual(summary.totals.clients, { created: 5, onboarded: 0, reporting: 0, failed: 5 });
      const [entry] = summary.unexpected;
      assert.equal(entry.code, 'WFMCK_E_TIMEOUT');
      assert.equal(entry.endpoint, 'certificate');
      assert.equal(entry.exchange.method, 'GET');
      assert.equal(entry.exchange.error.code, 'WFMCK_E_TIMEOUT');
    } finally {
      await server.close();
    }
  },
);
