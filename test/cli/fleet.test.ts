// `wfmck fleet` as a user runs it: a child process against the embedded default, judged by fleet-summary.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWfmck } from '../support/wfmck-cli.ts';

const fleet = (args: string[]) => startWfmck(['fleet', ...args]);

test(
  'fleet --edition miaf: each device its own SVID and mutual-TLS connection, no onboarding, every one reporting',
  { timeout: 120_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-miaf-'));
    const run = fleet([
      '--edition',
      'miaf',
      '--devices',
      '30',
      '--see-thru-gateways',
      '2',
      '--duration',
      '2',
      '--seed',
      '12',
      '--out',
      dir,
    ]);
    const [code] = await run.exit;
    assert.equal(code, 0, run.out.stderr + run.out.stdout);
    const summary = JSON.parse(await readFile(join(dir, 'fleet-summary.json'), 'utf8'));
    assert.deepEqual(summary.totals.clients, { created: 32, onboarded: 32, reporting: 32, failed: 0 });
    assert.equal(summary.totals.requests.unexpected, 0);
    assert.equal(summary.latency.onboarding?.count ?? 0, 0, 'P10: no onboarding call');
    assert.match(run.out.stdout, /^PASS 32\/32 devices reporting/);
  },
);

test(
  'fleet of 50 devices, 3 see-thru and 2 opaque gateways on the embedded default exits 0 with matching counts',
  { timeout: 120_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-e2e-'));
    const run = fleet([
      '--devices',
      '50',
      '--see-thru-gateways',
      '3',
      '--children',
      '2',
      '--opaque-gateways',
      '2',
      '--duration',
      '2',
      '--seed',
      '11',
      '--out',
      dir,
    ]);
    const [code] = await run.exit;
    assert.equal(code, 0, run.out.stderr + run.out.stdout);
    const summary = JSON.parse(await readFile(join(dir, 'fleet-summary.json'), 'utf8'));
    assert.equal(summary.passed, true);
    assert.equal(summary.interrupted, false);
    assert.equal(summary.seed, 11);
    assert.equal(summary.shard, '1/1');
    assert.deepEqual(summary.expected, {
      clients: 55,
      seeThruGateways: 3,
      opaqueGateways: 2,
      plain: 50,
      seeThruChildren: 6,
      opaqueChildren: 4,
      deviceIds: 61,
    });
    assert.deepEqual(summary.totals.clients, { created: 55, onboarded: 55, reporting: 55, failed: 0 });
    assert.equal(summary.totals.deviceIdsCreated, 61);
    assert.equal(summary.totals.requests.unexpected, 0);
    assert.equal(summary.latency.onboarding.count, 55);
    assert.equal(summary.latency['capabilities.put'].count, 61, 'one PUT per visible deviceId; opaque children stay hidden');
    // The embedded services run in a process of their own: both CPU times are measured, apart.
    assert.ok(summary.cpu.fleetMs > 0 && summary.cpu.embeddedServicesMs > 0, JSON.stringify(summary.cpu));
    assert.ok(summary.embeddedServicesPeakRssBytes > 10_000_000, String(summary.embeddedServicesPeakRssBytes));
    assert.match(run.out.stdout, /cpu and peak RSS: fleet \d+\.\d s, \d+ MB; embedded services \d+\.\d s, \d+ MB/);
    assert.ok(summary.latency['desired-state'].count >= 55);
    assert.match(run.out.stdout, /^PASS 55\/55 devices reporting/);
  },
);

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  test(
    `${signal} stops the fleet cleanly: exit ${code} (as wfmck run) and a summary with interrupted true`,
    { timeout: 120_000 },
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-int-'));
      const run = fleet(['--devices', '3000', '--duration', '60', '--concurrency', '8', '--out', dir]);
      // Interrupt once devices are onboarding (the first progress line arrives after the embedded services start).
      while (!/onboarded [1-9]/.test(run.out.stderr)) await new Promise((r) => setTimeout(r, 100));
      run.child.kill(signal);
      const [exit] = await run.exit;
      assert.equal(exit, code, run.out.stderr);
      const summary = JSON.parse(await readFile(join(dir, 'fleet-summary.json'), 'utf8'));
      assert.equal(summary.interrupted, true);
      assert.equal(summary.passed, false);
      assert.ok(summary.totals.clients.onboarded < 3000);
      assert.equal(summary.totals.requests.transportErrors, 0, 'requests we aborted are not charged to the WFM');
    },
  );
}

test(
  'thresholds: a fleet that ran clean but breaks one exits 1 and names it; the end lists p50/p95/p99 per endpoint',
  { timeout: 120_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-thresholds-'));
    const run = fleet([
      '--devices',
      '10',
      '--duration',
      '1',
      '--seed',
      '3',
      '--threshold',
      'errors<0.1%',
      '--threshold',
      'capabilities.put:p50<0.001ms',
      '--out',
      dir,
    ]);
    const [code] = await run.exit;
    assert.equal(code, 1, run.out.stderr + run.out.stdout);
    const summary = JSON.parse(await readFile(join(dir, 'fleet-summary.json'), 'utf8'));
    assert.equal(summary.ranClean, true, 'every device reported, nothing unexpected');
    assert.deepEqual(
      summary.thresholds.map((t: { threshold: string; ok: boolean }) => [t.threshold, t.ok]),
      [
        ['errors<0.1%', true],
        ['capabilities.put:p50<0.001ms', false],
      ],
    );
    assert.match(run.out.stdout, /^ {2}capabilities\.put +10 requests +p50 [\d.]+ ms +p95 [\d.]+ ms +p99 [\d.]+ ms$/m);
    assert.match(run.out.stdout, /^ {2}FAIL threshold capabilities\.put:p50<0\.001ms: [\d.]+ ms \(capabilities\.put\)$/m);
  },
);

test('stages ramp the starts and --metrics-out streams interval figures that add up to the totals', { timeout: 120_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-stages-'));
  const metrics = join(dir, 'metrics.jsonl');
  const run = fleet([
    '--devices',
    '20',
    '--duration',
    '1',
    '--seed',
    '4',
    '--stages',
    '1s:5,1s:20',
    '--metrics-out',
    metrics,
    '--out',
    dir,
  ]);
  const [code] = await run.exit;
  assert.equal(code, 0, run.out.stderr + run.out.stdout);
  const summary = JSON.parse(await readFile(join(dir, 'fleet-summary.json'), 'utf8'));
  assert.deepEqual(summary.spec.stages, [
    { seconds: 1, target: 5 },
    { seconds: 1, target: 20 },
  ]);
  assert.ok(summary.startPhaseMs >= 1_800, `the last start waited for the ramp: ${summary.startPhaseMs} ms`);
  const lines = (await readFile(metrics, 'utf8'))
    .trim()
    .split('\n')
    .map(
      (l) => JSON.parse(l) as { requests: number; p95Ms: number; clients: { reporting: number }; rssBytes: number; heapUsedBytes: number },
    );
  assert.ok(lines.length >= 1);
  assert.ok(
    lines.every((l) => l.heapUsedBytes > 0 && l.heapUsedBytes < l.rssBytes),
    'each line says how much of the RSS is heap',
  );
  assert.equal(
    lines.reduce((n, l) => n + l.requests, 0),
    summary.totals.requests.total,
    'the intervals add up to the totals',
  );
  assert.equal(lines.at(-1)!.clients.reporting, 20);
});
