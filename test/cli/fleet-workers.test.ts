// `wfmck fleet --workers N` as a user runs it: the same seeded fleet over two worker processes gives the counts of one
// process, in one summary; Ctrl-C stops every worker and still writes it; thresholds are judged on the merged figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWfmck } from '../support/wfmck-cli.ts';
import { startServe } from '../support/serve-target.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const fleet = (args: string[]) => startWfmck(['fleet', ...args]);

async function summaryOf(dir: string) {
  return JSON.parse(await readFile(join(dir, 'fleet-summary.json'), 'utf8'));
}

/** Every process below `pid`, from /proc (the children of each of its threads). */
function descendants(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** Alive and not a zombie (an orphan's end is reaped by whatever adopted it, perhaps not at once). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}

// Duration 0: each device ticks exactly its minimum, so every count (desired-state polls included) is the seed's alone.
const SMALL_FLEET = ['--devices', '40', '--see-thru-gateways', '2', '--children', '2', '--opaque-gateways', '2', '--duration', '0'];

test('two workers simulate the same fleet as one process: equal counts in one merged summary', { timeout: 90_000 }, async () => {
  const [one, two] = [await mkdtemp(join(tmpdir(), 'wfmck-fleet-w1-')), await mkdtemp(join(tmpdir(), 'wfmck-fleet-w2-'))];
  const byOne = fleet([...SMALL_FLEET, '--seed', '21', '--workers', '1', '--out', one]);
  assert.equal((await byOne.exit)[0], 0, byOne.out.stderr + byOne.out.stdout);
  const byTwo = fleet([...SMALL_FLEET, '--seed', '21', '--workers', '2', '--out', two]);
  assert.equal((await byTwo.exit)[0], 0, byTwo.out.stderr + byTwo.out.stdout);
  const [a, b] = [await summaryOf(one), await summaryOf(two)];
  const counts = (s: typeof a) => ({
    expected: s.expected,
    clients: s.totals.clients,
    deviceIdsCreated: s.totals.deviceIdsCreated,
    requests: s.totals.requests,
    byEndpoint: Object.fromEntries(Object.entries(s.latency).map(([e, l]) => [e, (l as { count: number }).count])),
    deployments: s.totals.deployments,
  });
  assert.deepEqual(counts(b), counts(a));
  assert.equal(a.totals.clients.reporting, 44);
  assert.equal(a.mergedFrom, undefined, 'one worker: the fleet runs in the command itself');
  assert.deepEqual(
    b.mergedFrom.map((m: { shard: string }) => m.shard),
    ['1/2', '2/2'],
  );
  assert.equal(b.shard, '1/1');
  assert.equal(b.complete, true);
  assert.ok(b.cpu.fleetMs > 0 && b.cpu.embeddedServicesMs > 0, JSON.stringify(b.cpu));
  // One progress line for the fleet, never a worker's own.
  assert.match(byTwo.out.stderr, /onboarded 44\/44 reporting 44/);
  assert.doesNotMatch(byTwo.out.stderr, /onboarded \d+\/2[23] /);
});

test('SIGINT stops every worker: exit 130, one interrupted summary, no process left', { timeout: 90_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-w-int-'));
  const run = fleet(['--devices', '3000', '--duration', '60', '--concurrency', '8', '--workers', '2', '--out', dir]);
  while (!/onboarded [1-9]/.test(run.out.stderr)) await sleep(100);
  const processes = descendants(run.child.pid!);
  assert.equal(processes.length, 3, 'the embedded services and two workers');
  run.child.kill('SIGINT');
  const [code] = await run.exit;
  assert.equal(code, 130, run.out.stderr);
  const summary = await summaryOf(dir);
  assert.equal(summary.interrupted, true);
  assert.equal(summary.passed, false);
  assert.equal(summary.complete, true, 'each worker sent its summary');
  assert.equal(summary.expected.clients, 3000);
  assert.ok(summary.totals.clients.onboarded > 0 && summary.totals.clients.onboarded < 3000);
  assert.equal(summary.totals.requests.transportErrors, 0, 'requests we aborted are not charged to the WFM');
  for (let i = 0; i < 30 && processes.some(alive); i++) await sleep(100);
  assert.deepEqual(processes.filter(alive), []);
});

test('a threshold is judged on the merged figures: broken, the run exits 1', { timeout: 60_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-w-thr-'));
  const run = fleet([
    ...['--devices', '12', '--duration', '0', '--seed', '3', '--workers', '2', '--out', dir],
    ...['--threshold', 'errors<0.1%', '--threshold', 'capabilities.put:p50<0.001ms'],
  ]);
  const [code] = await run.exit;
  assert.equal(code, 1, run.out.stderr + run.out.stdout);
  const summary = await summaryOf(dir);
  assert.equal(summary.ranClean, true);
  assert.equal(summary.latency['capabilities.put'].count, 12, 'both workers in the figures');
  assert.deepEqual(summary.thresholds, [
    { threshold: 'errors<0.1%', observed: 0, ok: true },
    {
      threshold: 'capabilities.put:p50<0.001ms',
      observed: summary.latency['capabilities.put'].p50Ms,
      endpoint: 'capabilities.put',
      ok: false,
    },
  ]);
  assert.match(run.out.stdout, /^ {2}FAIL threshold capabilities\.put:p50<0\.001ms: [\d.]+ ms \(capabilities\.put\)$/m);
});

test(
  'a WFM by a name the user gave (--resolve to loopback): every worker may contact it, as the command may',
  { timeout: 90_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-w-named-'));
    const served = await startServe(['--state-dir', join(dir, 'serve'), '--hostname', 'wfm.example.test']);
    try {
      const port = new URL(String(served.info.wfm)).port;
      const run = fleet([
        ...['--devices', '12', '--duration', '0', '--seed', '4', '--workers', '2', '--out', join(dir, 'out')],
        ...['--wfm', `https://wfm.example.test:${port}`, '--resolve', `wfm.example.test:${port}:127.0.0.1`],
        ...['--ca-file', String(served.info.caFile), '--device-ca-cert', String(served.info.deviceCaCertFile)],
        ...['--device-ca-key', String(served.info.deviceCaKeyFile)],
      ]);
      const [code] = await run.exit;
      assert.equal(code, 0, run.out.stderr + run.out.stdout);
      const summary = await summaryOf(join(dir, 'out'));
      assert.deepEqual([summary.totals.clients.reporting, summary.totals.errors], [12, {}]);
      assert.equal(summary.mergedFrom.length, 2, 'two workers ran it');
    } finally {
      await served.stop();
    }
  },
);
