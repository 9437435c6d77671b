// Fleet settings: flags over file over defaults, and errors that name the key at fault.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { progressWriter, type FleetProgress } from '../../simulators/fleet/progress.ts';
import { FleetSpecError, loadFleetFile, parseFleetInput, resolveFleetSpec } from '../../simulators/fleet/spec.ts';

async function fleetFile(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'wfmck-fleet-spec-')), 'fleet.yaml');
  await writeFile(file, text);
  return file;
}

test('a fleet file is read, and flags override it', async () => {
  const file = await fleetFile('devices: 12\nseeThruGateways: 2\nfaults:\n  crashingContainer: 0.05\nshard: 2/3\nduration: 1.5\n');
  const spec = resolveFleetSpec(
    await loadFleetFile(file),
    parseFleetInput({ devices: '30', faults: 'flappingCapabilities=0.1' }, (key) => `--${key}`),
  );
  assert.equal(spec.devices, 30);
  assert.equal(spec.seeThruGateways, 2);
  assert.deepEqual(spec.faults, { flappingCapabilities: 0.1 });
  assert.deepEqual(spec.shard, { index: 1, count: 3 });
  assert.equal(spec.duration, 1.5);
  assert.equal(spec.children, 2, 'default');
});

test('the fleet file names the per-device mix `misbehaviour`, as the flag does; `faults`, its old spelling, still works', async () => {
  const mix = { crashingContainer: 0.05 };
  assert.deepEqual((await loadFleetFile(await fleetFile('misbehaviour:\n  crashingContainer: 0.05\n'))).faults, mix);
  assert.deepEqual((await loadFleetFile(await fleetFile('faults:\n  crashingContainer: 0.05\n'))).faults, mix);
  await assert.rejects(
    loadFleetFile(await fleetFile('misbehaviour:\n  stateLoss: 0.1\nfaults:\n  stateLoss: 0.2\n')),
    /key "misbehaviour" and "faults" \(its old spelling\) are both given/,
  );
  await assert.rejects(loadFleetFile(await fleetFile('misbehaviour:\n  crashing: 0.1\n')), /key "misbehaviour": unknown fault "crashing"/);
});

test('errors name the key and what was wrong', async () => {
  const cases: [string, RegExp][] = [
    ['devices: many\n', /"devices": expected a number/],
    ['devices: -1\n', /"devices": expected a whole number ≥ 0/],
    ['devise: 3\n', /"devise" is not a fleet setting/],
    ['faults:\n  crashing: 0.1\n', /"faults": unknown fault "crashing"/],
    ['faults:\n  stateLoss: 2\n', /"faults"\.stateLoss: expected a share between 0 and 1/],
    ['shard: 4/3\n', /"shard": expected i\/n/],
    ['- 1\n- 2\n', /must be a mapping/],
    ['devices: [\n', /not YAML/],
  ];
  for (const [text, message] of cases) {
    const file = await fleetFile(text);
    await assert.rejects(
      loadFleetFile(file),
      (err: Error) => err instanceof FleetSpecError && message.test(err.message) && err.message.includes(file),
      text,
    );
  }
  await assert.rejects(loadFleetFile('/nonexistent/fleet.yaml'), /--fleet-file/);
});

test('whole-spec checks: empty fleet, opaque gateways without children, exploding depth', () => {
  assert.throws(() => resolveFleetSpec({ devices: 0 }), /fleet is empty/);
  assert.throws(() => resolveFleetSpec({ opaqueGateways: 1, children: 0 }), /"children"/);
  assert.throws(() => resolveFleetSpec({ seeThruGateways: 1, children: 10, depth: 5 }), /"children"\/"depth": .*\(limit 10000\)/);
  assert.equal(resolveFleetSpec({ devices: 1 }).seed >= 0, true, 'a seed is always chosen, and echoed in the summary');
});

test('progress: a terminal gets one redrawn line at most 4 times a second; a log gets a line every 5 s', () => {
  const p = (onboarded: number): FleetProgress => ({
    elapsedMs: 1000,
    clientsTotal: 10,
    clients: { created: onboarded, onboarded, reporting: onboarded, failed: 0 },
    requests: onboarded * 3,
    errors: { '403': 2 },
  });
  let now = 0;
  const tty: string[] = [];
  const live = progressWriter({ isTTY: true, write: (s) => tty.push(s) }, () => now);
  for (let i = 0; i < 20; i++, now += 50) live.update(p(Math.min(i, 10)));
  live.done(p(10));
  assert.ok(tty.length >= 4 && tty.length <= 7, `~4 redraws per second: ${tty.length}`);
  assert.ok(tty.slice(0, -1).every((s) => s.startsWith('\r') && !s.includes('\n')));
  assert.match(tty.at(-2)!, /onboarded 10\/10 reporting 10 failed 0 \| \d+ req\/s \| errors 403×2/);
  now = 0;
  const log: string[] = [];
  const plain = progressWriter({ isTTY: false, write: (s) => log.push(s) }, () => now);
  for (let i = 0; i < 120; i++, now += 100) plain.update(p(i % 10));
  assert.equal(log.length, 3, 'at 0, 5 and 10 s');
  assert.ok(log.every((s) => s.endsWith('\n') && !s.includes('\r')));
});
