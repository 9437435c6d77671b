// `wfmck run` as a user runs it, in a child process: refusals before Playwright starts, and SIGINT.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startEmbedded, writeTrustFiles } from '../../run/processes/embedded.ts';
import { createRootCa } from '../../protocol/pki.ts';
import type { RunContext } from '../../run/contract/context.ts';
import { runWfmck } from '../support/wfmck-cli.ts';
import { loadRequirements } from '../../spec/requirements.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin', 'wfmck.mjs');

const wfmck = runWfmck;

const outDir = () => join(mkdtempSync(join(tmpdir(), 'wfmck-run-')), 'out');

test(
  'a WFM target with nothing listening: exit 2 with a one-line reason, before Playwright or any output',
  { timeout: 30_000 },
  async () => {
    const out = outDir();
    const r = await wfmck(['run', '--wfm', 'https://127.0.0.1:1', '--out', out]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^wfmck run: WFMCK_E_UNREACHABLE: unreachable target: WFM https:\/\/127\.0\.0\.1:1: connection refused\n$/);
    assert.equal(existsSync(out), false, 'nothing is written for a run that never started');
  },
);

test('a target whose TLS certificate the kit cannot verify: exit 2, naming TLS and tls.caFiles', { timeout: 30_000 }, async (t) => {
  const embedded = await startEmbedded();
  t.after(() => embedded.close());
  const r = await wfmck(['run', '--wfm', embedded.wfm, '--out', outDir()]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /unreachable target: WFM .*: TLS: its certificate is not covered by the run's CAs .*tls\.caFiles/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
});

test(
  'a named target off loopback is accepted with one notice (its name pinned to a closed loopback port here)',
  { timeout: 30_000 },
  async () => {
    const out = outDir();
    const r = await wfmck(['run', '--wfm', 'https://wfm.example.test:1', '--resolve', 'wfm.example.test:1:127.0.0.1', '--out', out]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(
      r.stderr,
      'wfmck run: notice: wfm.example.test is not on loopback: the kit sends hostile inputs (malformed, oversized and badly signed requests) and load there; name only services you may test\n' +
        'wfmck run: WFMCK_E_UNREACHABLE: unreachable target: WFM https://wfm.example.test:1: connection refused\n',
    );
  },
);

test('a target that is not an http(s) URL, a bad strictness, an unknown flag: exit 2 with the reason', { timeout: 30_000 }, async () => {
  const remote = await wfmck(['run', '--wfm', 'ftp://wfm.example.test']);
  assert.equal(remote.code, 2);
  assert.equal(remote.stderr, 'wfmck run: --wfm: "ftp://wfm.example.test" is not an http(s) URL\nsee wfmck run --help\n');
  const strictness = await wfmck(['run', '--strictness', 'harsh']);
  assert.equal(strictness.code, 2);
  assert.match(strictness.stderr, /^wfmck run: --strictness: must be one of strict, default, lenient/);
  const unknown = await wfmck(['run', '--colour']);
  assert.deepEqual([unknown.code, unknown.stderr], [2, 'wfmck run: --colour: unknown option\nsee wfmck run --help\n']);
});

test('a --grep that matches no test judges nothing: exit 2, NO VERDICT, and still a report', { timeout: 60_000 }, async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'wfmck-nogrep-')), 'out');
  const r = await wfmck(['run', '--grep', 'NO-SUCH-REQUIREMENT', '--out', out]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stdout, /^wfmck run: NO VERDICT: nothing was judged; .* 0 pass, 0 fail/m);
  assert.ok(existsSync(join(out, 'conformance.json')));
});

test(
  'SIGINT: forwarded to Playwright, waited for, exit 130 (a process with live embedded services would not exit)',
  { timeout: 60_000 },
  async () => {
    const child = spawn(process.execPath, [bin, 'run', '--out', outDir()], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const lines = createInterface({ input: child.stdout });
    for await (const line of lines) if (line.startsWith('wfmck run: embedded')) break;
    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 130, stderr);
  },
);

test('end to end on the embedded default: exit 0, every report written, the replay command printed', { timeout: 120_000 }, async () => {
  const out = outDir();
  const r = await wfmck(['run', '--out', out, '--seed', '11']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as {
    seed: number;
    summary: { mustFailed: number; pass: number };
  };
  assert.equal(report.seed, 11);
  assert.equal(report.summary.mustFailed, 0);
  assert.ok(report.summary.pass >= 5);
  for (const f of ['conformance.html', 'junit.xml', join('playwright-report', 'index.html'), 'run-context.json', 'config.json'])
    assert.ok(existsSync(join(out, f)), f);
  const ctx = JSON.parse(readFileSync(join(out, 'run-context.json'), 'utf8')) as RunContext;
  assert.deepEqual(
    new Set(Object.values(ctx.hooks).map((h) => h.kind === 'admin' && h.tokenEnv)),
    new Set(['WFMCK_ADMIN_TOKEN']),
    'the admin token travels by env name only',
  );
  assert.match(r.stdout, new RegExp(`replay +npx wfmck run --config ${join(out, 'replay.yaml').replace(/[.]/g, '\\.')} --seed 11\n`));
  assert.match(
    r.stdout,
    new RegExp(`^wfmck run: CONFORMANT; ${loadRequirements().length} requirements: .* 0 kit error$`, 'm'),
    'one summary line, every count in it',
  );
  assert.equal(r.stdout.match(/requirements: \d+ pass/g)?.length, 1, 'and only one');
});

test('a plain `playwright test` prepares the same run itself (global setup) into WFMCK_OUT', { timeout: 120_000 }, async () => {
  const out = outDir();
  const child = spawn(
    process.execPath,
    [join(root, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--config', join(root, 'playwright.config.ts')],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WFMCK_CONTEXT: '', WFMCK_OUT: out },
    },
  );
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.equal(code, 0, output);
  const ctx = JSON.parse(readFileSync(join(out, 'run-context.json'), 'utf8')) as RunContext;
  assert.equal(ctx.embedded, true);
  assert.ok(existsSync(join(out, 'junit.xml')));
});

test('a named target from a YAML file, with its CA and device CA: probed, certified, exit 0', { timeout: 120_000 }, async (t) => {
  const embedded = await startEmbedded();
  t.after(() => embedded.close());
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-target-'));
  await writeTrustFiles(embedded, dir);
  const yaml = `targets:\n  wfm: ${embedded.wfm}\ntls:\n  caFiles: [ca.pem]\ndeviceCa:\n  certFile: device-ca.pem\n  keyFile: device-ca.key\n`;
  writeFileSync(join(dir, 'wfmck.config.yaml'), yaml);
  // Asynchronous: the target answers from this process's event loop.
  const r = await wfmck(['run', '--config', join(dir, 'wfmck.config.yaml'), '--out', join(dir, 'out'), '--grep', 'CAP-PUT']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const ctx = JSON.parse(readFileSync(join(dir, 'out', 'run-context.json'), 'utf8')) as RunContext;
  assert.deepEqual([ctx.embedded, ctx.targets.wfm, ctx.hooks], [false, embedded.wfm, {}]);
  // The compact console: one line per spec file with its counts, and the summary line.
  assert.match(r.stdout, /^ {2}capabilities +\d+ pass/m);
  assert.match(r.stdout, /^wfmck run: INCOMPLETE: no failure/m, 'a run filtered by --grep judged some requirements, and failed none');
  assert.match(r.stdout, /requirements: [1-9]\d* pass, 0 fail,/);
});

test(
  'a WFM that answers 200 to every PUT fails CAP-PUT-201: exit 1, the failure with its evidence in the report',
  { timeout: 120_000 },
  async (t) => {
    // Onboarding works; every other request gets 200, so "PUT creates: 201" is violated.
    const server = createServer((req, res) => {
      req.resume().on('end', () => {
        res.writeHead(req.url === '/api/v1/onboarding' ? 201 : 200, { 'content-type': 'application/json' });
        res.end(req.url === '/api/v1/onboarding' ? '{"clientId":"c-1"}' : '{}');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    t.after(() => new Promise((resolve) => server.close(resolve)));
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-fail-'));
    const ca = await createRootCa('test device CA');
    writeFileSync(join(dir, 'ca.pem'), ca.certPem);
    writeFileSync(join(dir, 'ca.key'), ca.keyPem);
    const env = { WFMCK_DEVICE_CA_CERT: join(dir, 'ca.pem'), WFMCK_DEVICE_CA_KEY: join(dir, 'ca.key') };
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await wfmck(['run', '--wfm', url, '--out', join(dir, 'out'), '--grep', 'creates it: 201'], env);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /NOT CONFORMANT: 1 requirement failed, 1 of them MUST/);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'conformance.json'), 'utf8')) as {
      requirements: { id: string; status: string; evidence?: unknown[] }[];
    };
    const failed = report.requirements.find((x) => x.id === 'CAP-PUT-201')!;
    assert.equal(failed.status, 'fail');
    assert.ok(JSON.stringify(failed).includes('wfmck-test-id'), 'the failure keeps its exchanges');
  },
);

test(
  'end to end in edition miaf: exit 0, conformant, the edition in the report, seed-only checks skipped with the reason',
  { timeout: 180_000 },
  async () => {
    const out = outDir();
    const r = await wfmck(['run', '--edition', 'miaf', '--out', out, '--seed', '12']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as {
      edition: string;
      summary: { verdict: string };
      requirements: { id: string; status: string; reason?: string }[];
    };
    assert.equal(report.edition, 'miaf');
    assert.equal(report.summary.verdict, 'conformant');
    const byId = new Map(report.requirements.map((q) => [q.id, q]));
    assert.equal(byId.get('MIAF-MTLS-EVERY-REQUEST')?.status, 'pass');
    assert.equal(byId.get('SVID-CHAIN-BUNDLE')?.status, 'pass');
    assert.match(byId.get('ONB-201-CLIENTID')?.reason ?? '', /applies to edition seed; this run is edition miaf/);
  },
);

test(
  'personas: identity judges the identity role alone (the rest skipped, named); device names no targets; an unknown one is a usage error',
  { timeout: 120_000 },
  async () => {
    const out = outDir();
    const r = await wfmck(['run', '--persona', 'identity', '--out', out, '--seed', '13']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as {
      persona: string;
      clientUnderTest?: string;
      summary: { verdict: string };
      requirements: { id: string; observer: string; status: string; reason?: string }[];
    };
    assert.deepEqual([report.persona, report.summary.verdict], ['identity', 'conformant']);
    assert.ok(report.requirements.filter((q) => q.observer === 'identity').every((q) => q.status === 'pass' || q.status === 'skip'));
    assert.match(
      report.requirements.find((q) => q.id === 'CAP-PUT-201')!.reason!,
      /judged by the wfm persona; this run is persona identity/,
    );
    const named = await wfmck(['run', '--persona', 'device', '--wfm', 'https://127.0.0.1:9']);
    assert.equal(named.code, 2, 'the device persona names no targets: the kit is the WFM');
    assert.match(named.stderr, /^wfmck run: --persona: device runs the kit's own services/);
    assert.equal((await wfmck(['run', '--persona', 'nobody'])).code, 2);
  },
);

test(
  "persona device with the kit's own client: exit 0, conformant: every client duty of the edition passes or is untestable with its reason; the services' are skipped",
  { timeout: 180_000 },
  async () => {
    const out = outDir();
    const r = await wfmck(['run', '--persona', 'device', '--out', out, '--seed', '14']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as {
      persona: string;
      clientUnderTest?: string;
      summary: { mustFailed: number; verdict: string };
      requirements: { id: string; observer: string; status: string; reason?: string; otherEdition?: true }[];
    };
    assert.equal(report.persona, 'device');
    assert.equal(report.clientUnderTest, 'kit', "the report says the client judged was the kit's own");
    assert.deepEqual([report.summary.mustFailed, report.summary.verdict], [0, 'conformant']);
    const byId = new Map(report.requirements.map((q) => [q.id, q]));
    for (const id of [
      'CAP-FIRST-EXCHANGE',
      'GW-ORDER-GATEWAY-FIRST',
      'STATUS-COMPONENTS-ONE-PER',
      'STATUS-PRECEDENCE',
      'PROPS-MEMORY-FORMAT',
    ])
      assert.equal(byId.get(id)?.status, 'pass', id);
    assert.match(byId.get('CAP-PUT-201')?.reason ?? '', /judged by the wfm persona; this run is persona device/);
    const client = report.requirements.filter((q) => q.observer === 'client' && !q.otherEdition);
    const open = client.filter(
      (q) => q.status !== 'pass' && !(q.status === 'untestable' && /^not visible on the wire/.test(q.reason ?? '')),
    );
    assert.deepEqual(
      open.map((q) => `${q.id} ${q.status}`),
      [],
      'every client duty of seed judged, or explained',
    );
    assert.match(byId.get('BUNDLE-REPLACE-ANCHORS')?.reason ?? '', /not visible on the wire in edition seed/);
  },
);
