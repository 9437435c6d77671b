// Issue 33: a real DNS name for a target while every byte stays on 127.0.0.0/8. `wfmck serve --hostname NAME` puts
// NAME in the services' certificate; `wfmck run --resolve NAME:PORT:127.0.0.1` pins it, and TLS still checks NAME.
// No DNS query leaves the machine: the children run with test/support/no-dns.mjs, which refuses and notes every name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { parse } from 'yaml';
import { PLUMBING, runWfmck } from '../support/wfmck-cli.ts';
import { startServe, targetConfig } from '../support/serve-target.ts';
import { startEmbedded } from '../../run/processes/embedded.ts';
import { createSharedAgent } from '../../simulators/transport/undici-transport.ts';
import { installPins, parsePin } from '../../protocol/pinned-lookup.ts';
import { resolveConfig } from '../../run/options/config.ts';
import { replayYaml } from '../../run/options/replay-config.ts';
import { anyListenAddress } from '../../run/options/args.ts';
import { listenNotice } from '../../cli/serve.ts';
import type { ConformanceReport } from '../../reports/conformance-json.ts';

const NAME = 'wfm.example.test';
const NO_DNS = fileURLToPath(new URL('../support/no-dns.mjs', import.meta.url));

test(
  'serve --hostname wfm.example.test, then run --wfm https://wfm.example.test:PORT --resolve wfm.example.test:PORT:127.0.0.1: certified (exit 0), no DNS query',
  { timeout: 600_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-resolve-'));
    const served = await startServe(['--state-dir', join(dir, 'serve'), '--hostname', NAME]);
    try {
      const port = new URL(String(served.info.wfm)).port;
      const wfm = `https://${NAME}:${port}`;
      const out = join(dir, 'out');
      const lookups = join(dir, 'dns.log');
      const r = await runWfmck(
        [
          'run',
          '--config',
          targetConfig(served, dir),
          '--wfm',
          wfm,
          '--resolve',
          `${NAME}:${port}:127.0.0.1`,
          '--out',
          out,
          '--seed',
          '7',
          ...PLUMBING,
        ],
        {
          ...served.env,
          NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${NO_DNS}`.trim(),
          WFMCK_NO_DNS: lookups,
        },
      );
      assert.equal(r.code, 0, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
      assert.equal(existsSync(lookups) ? readFileSync(lookups, 'utf8') : '', '', 'every socket to the name went through the pin');
      const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
      assert.match(
        JSON.stringify(report),
        new RegExp(`https://${NAME.replace(/\./g, '\\.')}:${port}`),
        'the report names the target by its name',
      );
      const replay = parse(readFileSync(join(out, 'replay.yaml'), 'utf8')) as { resolve?: string[]; targets: { wfm: string } };
      assert.deepEqual([replay.targets.wfm, replay.resolve], [wfm, [`${NAME}:${port}:127.0.0.1`]], 'a replay command pins it too');
    } finally {
      await served.stop();
    }
  },
);

test('a name no pin covers and no resolver knows: exit 2 before any check, naming --resolve', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-resolve-none-'));
  const r = await runWfmck(['run', '--wfm', `https://${NAME}:1`, '--out', join(dir, 'out')], {
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${NO_DNS}`.trim(),
  });
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /unreachable target: WFM https:\/\/wfm\.example\.test:1: no address for wfm\.example\.test \(ENOTFOUND\); pin one with --resolve wfm\.example\.test:1:ADDR/,
  );
});

test('the embedded services carry a --hostname name in their certificate: without it, TLS through the pin fails the hostname check', async (t) => {
  const agents: { close(): Promise<void> }[] = [];
  t.after(async () => {
    installPins([]);
    await Promise.all(agents.map((a) => a.close()));
  });
  const answers = async (hostnames: string[]) => {
    const embedded = await startEmbedded({ hostnames });
    try {
      const port = Number(new URL(embedded.wfm).port);
      installPins([parsePin(`${NAME}:${port}:127.0.0.1`)]);
      const agent = createSharedAgent({ ca: embedded.caPem });
      agents.push(agent);
      const res = await request(`https://${NAME}:${port}/api/v1/deployments`, { dispatcher: agent });
      await res.body.dump();
      return res.statusCode;
    } finally {
      await embedded.close();
    }
  };
  await assert.rejects(answers([]), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
  assert.equal(typeof (await answers([NAME])), 'number', 'any HTTP answer: the handshake verified the name');
});

test('resolve: a repeated flag, WFMCK_RESOLVE comma-separated, or a YAML list; one name to two addresses is a usage error', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'wfmck-resolve-config-'));
  const pins = [
    { host: 'a.example.test', port: 1, address: '127.0.0.1' },
    { host: 'b.example.test', port: 2, address: '::1' },
  ];
  const flags = resolveConfig(['--resolve', 'a.example.test:1:127.0.0.1', '--resolve', 'b.example.test:2:[::1]'], {}, cwd);
  assert.deepEqual(flags.resolve, pins);
  assert.deepEqual(resolveConfig([], { WFMCK_RESOLVE: 'a.example.test:1:127.0.0.1, b.example.test:2:::1' }, cwd).resolve, pins);
  assert.match(replayYaml(flags), /resolve:\n {2}- a\.example\.test:1:127\.0\.0\.1\n {2}- b\.example\.test:2:\[::1\]\n/);
  const yaml = join(cwd, 'wfmck.config.yaml');
  writeFileSync(yaml, 'resolve:\n  - a.example.test:1:127.0.0.1\n  - b.example.test:2:[::1]\n');
  assert.deepEqual(resolveConfig(['--config', yaml], {}, cwd).resolve, pins);
  assert.equal(resolveConfig([], {}, mkdtempSync(join(tmpdir(), 'wfmck-resolve-none-'))).resolve, undefined);
  assert.throws(
    () => resolveConfig(['--resolve', 'a.example.test:1:127.0.0.1', '--resolve', 'a.example.test:2:127.0.0.2'], {}, cwd),
    /^Error: --resolve: a\.example\.test is pinned to both/,
  );
});

test('serve --listen takes any IP address, with one notice when it is beyond loopback', () => {
  assert.equal(anyListenAddress('0.0.0.0'), '0.0.0.0');
  assert.equal(anyListenAddress('[fd00::5]'), 'fd00::5');
  assert.equal(anyListenAddress('localhost'), '127.0.0.1');
  assert.throws(() => anyListenAddress('wfm.internal'), /"wfm\.internal" is not an IP address/);
  assert.equal(listenNotice('127.0.0.1'), undefined);
  assert.equal(listenNotice('::1'), undefined);
  assert.match(
    listenNotice('0.0.0.0')!,
    /listening on 0\.0\.0\.0: .*admin API \(its bearer token still required\) are reachable from beyond this machine/,
  );
});
