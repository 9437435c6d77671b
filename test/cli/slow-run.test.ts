// Issue 32, symptom 4 end to end: a check that runs out of time while the target answers promptly. A loopback proxy
// in front of `wfmck serve`'s WFM holds each chunk of every answer 150 ms (well inside every deadline), so the
// property check of CAP-PUT-201 (up to 20 runs of up to 8 exchanges) cannot finish in a 4 s test timeout on any
// machine: the report must call it a kit error with the answer times, never a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { playwrightCli } from '../../run/processes/playwright-launch.ts';
import { startServe, targetConfig } from '../support/serve-target.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HOLD_MS = 150;

interface Report {
  requirements: { id: string; status: string; tests: { status: string; errorCode?: string; error?: { message: string } }[] }[];
}

/** A TCP proxy to `port` whose answers arrive HOLD_MS late, chunk by chunk, in order (TLS passes through untouched). */
async function slowProxy(port: number): Promise<{ port: number; close(): void }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port });
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    let queue = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      queue = queue.then(() => new Promise<void>((r) => setTimeout(() => (client.write(chunk), r()), HOLD_MS)));
    });
    upstream.on('end', () => void queue.then(() => client.end()));
    for (const s of [client, upstream]) s.on('error', () => (client.destroy(), upstream.destroy()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

test(
  'out of time while the WFM answers every request in time: WFMCK_E_SLOW_RUN with the answer times, no failure',
  { timeout: 300_000 },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-slow-run-'));
    const served = await startServe(['--state-dir', join(dir, 'serve')]);
    t.after(() => served.stop());
    const wfm = new URL(String(served.info.wfm));
    const proxy = await slowProxy(Number(wfm.port));
    t.after(() => proxy.close());
    const config = targetConfig(served, dir, {});
    const out = join(dir, 'out');
    const { WFMCK_CONTEXT: _, ...env } = process.env;
    const args = ['test', '--config', join(ROOT, 'playwright.config.ts'), '--grep', 'CAP-PUT-201 CAP-PUT-200 random valid'];
    // Not spawnSync: the proxy lives in this process, and its event loop must run while Playwright does.
    const child = spawn(process.execPath, [playwrightCli(), ...args, '--timeout', '4000', '--workers', '1'], {
      cwd: ROOT,
      env: { ...env, ...served.env, WFMCK_OUT: out, WFMCK_CONFIG: config, WFMCK_WFM: `https://127.0.0.1:${proxy.port}`, WFMCK_SEED: '1' },
    });
    let output = '';
    for (const s of [child.stdout, child.stderr]) s.on('data', (d: Buffer) => (output += d.toString()));
    await once(child, 'exit');
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as Report;
    const ids = ['CAP-PUT-201', 'CAP-PUT-200'];
    for (const r of report.requirements.filter((x) => ids.includes(x.id))) {
      assert.equal(r.status, 'error', `${r.id}: ${output.slice(-3000)}`);
      const [check] = r.tests;
      assert.equal(check?.errorCode, 'WFMCK_E_SLOW_RUN');
      assert.match(
        check!.error!.message,
        /^the check ran out of time \(Test timeout of 4000ms exceeded\.\) though the target was never late/,
      );
      // Onboarding comes first: by 4 s some answers are in, each listed with its time.
      assert.match(check!.error!.message, /^answer times: \d+(, \d+)*( ms|, \.\.\. \(\d+ more\) ms)$/m);
    }
    assert.equal(report.requirements.filter((r) => r.status === 'fail').length, 0, 'nothing counts against the target');
  },
);
