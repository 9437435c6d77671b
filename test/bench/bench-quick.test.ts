// `npm run bench -- --quick` end to end, so the bench code itself stays tested: bench.json carries every figure and
// every target beside it. Values are never judged here: speed targets live in the bench output, not in timed tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport } from '../../bench/report.ts';
import { TYPESCRIPT } from '../support/wfmck-cli.ts';

const runner = fileURLToPath(new URL('../../bench/run.ts', import.meta.url));

const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

test('bench --quick writes bench.json with every figure, its target and verdict, and prints the table', { timeout: 600_000 }, async () => {
  const out = await mkdtemp(join(tmpdir(), 'wfmck-bench-'));
  const child = spawn(process.execPath, [...TYPESCRIPT, runner, '--quick', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = await once(child, 'exit');
  assert.equal(code, 0, stderr);
  const report = JSON.parse(await readFile(join(out, 'bench.json'), 'utf8')) as BenchReport;

  assert.equal(report.kind, 'wfmck-bench');
  assert.equal(report.quick, true);
  const f = report.figures as Required<BenchReport['figures']>;
  const fleetKeys = [
    'startPhaseSeconds',
    'wallSeconds',
    'heldSeconds',
    'fleetPeakRssMiB',
    'servicesPeakRssMiB',
    'fleetCpuSeconds',
    'servicesCpuSeconds',
  ] as const;
  for (const fleet of [f.acceptanceFleet, f.liveFleet]) {
    for (const key of fleetKeys) assert.ok(isNumber(fleet[key]), key);
    assert.equal(fleet.reporting, fleet.clients, 'every client of a bench fleet reports');
  }
  for (const side of [
    f.requestRate.autocannon,
    f.requestRate.fleetUnsigned,
    f.requestRate.fleetSigned,
    f.requestRate.fleetUnsignedAtSignedRate,
    f.requestRate.bareServer,
    f.requestRate.undiciAlone,
  ]) {
    for (const key of ['requestsPerSecond', 'ok', 'failed', 'seconds', 'wfmCpuMsPer1000', 'clientCpuMsPer1000'] as const)
      assert.ok(isNumber(side[key]), key);
  }
  assert.ok(isNumber(f.ratios.signingOff) && isNumber(f.ratios.signingOn));
  for (const key of ['devicesPerSecond', 'seconds', 'onboarded', 'reporting', 'mintSeconds', 'wfmCpuMsPer1000'] as const)
    assert.ok(isNumber(f.onboarding[key]), key);
  for (const key of ['devices', 'reporting', 'heapBytesPerDevice', 'rssBytesPerDevice'] as const) assert.ok(isNumber(f.memory[key]), key);
  assert.ok(isNumber(f.suite.seconds));
  for (const key of [
    'heldConcurrently',
    'attempted',
    'failed',
    'handshakesPerSecond',
    'firstHandshakesPerSecond',
    'firstDevices',
    'connectSeconds',
    'clientCpuMsPerHandshake',
    'wfmCpuMsPerHandshake',
    'mintSeconds',
    'rssBytesPerDevice',
    'heapBytesPerDevice',
    'connectedRssBytesPerDevice',
    'connectedHeapBytesPerDevice',
  ] as const) {
    assert.ok(isNumber(f.mtls[key]), `mtls ${key}`);
    if (key !== 'attempted') assert.ok(isNumber(f.mtls.sameExchange[key]), `mtls same-exchange ${key}`);
  }
  // The same-exchange floor held the same devices as the kit.
  assert.equal(f.mtls.sameExchange.heldConcurrently, f.mtls.attempted);
  for (const key of [
    'handshakesPerSecond',
    'sharedContextHandshakesPerSecond',
    'clientCpuMsPerHandshake',
    'rssBytesPerConnection',
  ] as const)
    assert.ok(isNumber(f.mtls.floor[key]) && f.mtls.floor[key] > 0, `mtls floor ${key}`);
  // The floor holds as many connections as the kit attempts, all of them at --quick's 300.
  assert.equal(f.mtls.attempted, f.mtls.settings.devices);
  assert.equal(f.mtls.floor.connections, f.mtls.attempted);
  assert.match(stdout, /mTLS devices held by 2 worker processes/);
  for (const key of ['putUnsignedMsPer1000', 'putSignedMsPer1000', 'onboardingMsPer1000', 'onboardingMsPerDevice'] as const)
    assert.ok(isNumber(f.wfmCost[key]), key);

  assert.deepEqual(
    report.targets.map((t) => t.id),
    [
      'request-rate-ratio',
      'request-rate-ratio-signed',
      'heap-per-device',
      'suite-time',
      'kit-sign-floor',
      'onboarding-cpu-floor',
      'client-cpu-unsigned',
      'client-cpu-signed',
      'signed-rate-floor',
      'mtls-held',
      'mtls-rss-per-device',
      'mtls-handshakes',
      'mtls-rss-per-device-same-exchange',
      'mtls-handshakes-same-exchange',
      'acceptance-fleet-start',
      'live-fleet-reporting',
      'live-fleet-unexpected',
      'live-fleet-held',
      'live-fleet-rss',
    ],
  );
  // The floors are measured in the same run, and each floor ratio is the kit's figure over its floor.
  for (const key of ['nativeSignUs', 'nativeVerifyUs', 'nativeX509Us', 'nativeKeyImportUs', 'kitSignUs'] as const)
    assert.ok(isNumber(f.floors[key]) && f.floors[key] > 0, key);
  assert.equal(f.floorRatios.kitSignOverNativeSign, Math.round((f.floors.kitSignUs / f.floors.nativeSignUs) * 100) / 100);
  const rr = f.requestRate;
  assert.equal(
    f.floorRatios.clientCpuUnsignedOverAutocannon,
    Math.round((rr.fleetUnsigned.clientCpuMsPer1000 / rr.autocannon.clientCpuMsPer1000) * 100) / 100,
  );
  // Split at undici alone: the kit's part and undici's.
  assert.equal(
    f.floorRatios.clientCpuUnsignedOverUndici,
    Math.round((rr.fleetUnsigned.clientCpuMsPer1000 / rr.undiciAlone.clientCpuMsPer1000) * 100) / 100,
  );
  assert.equal(
    f.floorRatios.clientCpuUndiciOverAutocannon,
    Math.round((rr.undiciAlone.clientCpuMsPer1000 / rr.autocannon.clientCpuMsPer1000) * 100) / 100,
  );
  assert.ok(
    rr.undiciAlone.ok > 0 && rr.undiciAlone.failed === 0,
    `undici alone: ${rr.undiciAlone.ok} answered, ${rr.undiciAlone.failed} not`,
  );
  // The cost of signing is read against the unsigned fleet held to the signed fleet's rate (its bucket holds it near).
  assert.equal(
    f.floorRatios.clientCpuSignedOverUnsignedPlusSign,
    Math.round((rr.fleetSigned.clientCpuMsPer1000 / (rr.fleetUnsignedAtSignedRate.clientCpuMsPer1000 + f.floors.nativeSignUs)) * 100) / 100,
  );
  assert.ok(
    rr.fleetUnsignedAtSignedRate.requestsPerSecond <= rr.fleetSigned.requestsPerSecond * 1.1,
    `held to ${rr.fleetUnsignedAtSignedRate.requestsPerSecond} req/s, the signed fleet ran at ${rr.fleetSigned.requestsPerSecond}`,
  );
  const bound =
    1 / (1 / rr.fleetUnsigned.requestsPerSecond + (f.floors.nativeSignUs + f.floors.nativeVerifyUs) / 1e6 / report.machine.cpus);
  assert.equal(f.floorRatios.signedRateBound, Math.round(bound));
  assert.equal(f.floorRatios.signedRateOverBound, Math.round((rr.fleetSigned.requestsPerSecond / bound) * 100) / 100);
  // The exchange floor: a bare node:https server under the same autocannon load, and an onboarding's own floor from it.
  const bare = rr.bareServer.wfmCpuMsPer1000;
  assert.ok(bare > 0 && rr.bareServer.failed === 0, `the bare server answered every PUT 200 (${rr.bareServer.failed} not)`);
  assert.equal(f.floorRatios.wfmPutOverBareServer, Math.round((rr.autocannon.wfmCpuMsPer1000 / bare) * 100) / 100);
  const exchangeFloor = 3 * bare + 3 * f.floors.nativeVerifyUs + f.floors.nativeKeyImportUs;
  assert.equal(f.floorRatios.onboardingExchangeFloorUs, Math.round(exchangeFloor * 10) / 10);
  assert.equal(
    f.floorRatios.wfmOnboardingOverExchangeFloor,
    Math.round(((f.wfmCost.onboardingMsPerDevice! * 1000) / f.floorRatios.onboardingExchangeFloorUs!) * 100) / 100,
  );
  // The kit's client per onboarding over what it cannot skip: three exchanges at autocannon's cost, two native signs.
  const clientFloor = 3 * rr.autocannon.clientCpuMsPer1000 + 2 * f.floors.nativeSignUs;
  assert.equal(f.floorRatios.onboardingClientFloorUs, Math.round(clientFloor * 10) / 10);
  assert.ok(f.onboarding.clientCpuUsPerOnboarding > 0);
  assert.equal(
    f.floorRatios.clientOnboardingOverFloor,
    Math.round((f.onboarding.clientCpuUsPerOnboarding / f.floorRatios.onboardingClientFloorUs!) * 100) / 100,
  );
  // mTLS against its floor of the same run: RSS per held device, and the first devices' handshakes (before any poll).
  assert.equal(
    f.floorRatios.mtlsRssPerDeviceOverBare,
    Math.round((f.mtls.rssBytesPerDevice / f.mtls.floor.rssBytesPerConnection) * 100) / 100,
  );
  assert.equal(
    f.floorRatios.mtlsHandshakesOverBare,
    Math.round((f.mtls.firstHandshakesPerSecond / f.mtls.floor.handshakesPerSecond) * 100) / 100,
  );
  // And beside bare TLS doing the same exchange, in the same run.
  const same = f.mtls.sameExchange;
  assert.equal(f.floorRatios.mtlsRssPerDeviceOverSameExchange, Math.round((f.mtls.rssBytesPerDevice / same.rssBytesPerDevice) * 100) / 100);
  assert.equal(
    f.floorRatios.mtlsHandshakesOverSameExchange,
    Math.round((f.mtls.firstHandshakesPerSecond / same.firstHandshakesPerSecond) * 100) / 100,
  );
  assert.equal(
    f.floorRatios.mtlsClientCpuOverSameExchange,
    Math.round((f.mtls.clientCpuMsPerHandshake / same.clientCpuMsPerHandshake) * 100) / 100,
  );
  for (const [id, ratio] of [
    ['mtls-rss-per-device', f.floorRatios.mtlsRssPerDeviceOverBare],
    ['mtls-handshakes', f.floorRatios.mtlsHandshakesOverBare],
    ['mtls-rss-per-device-same-exchange', f.floorRatios.mtlsRssPerDeviceOverSameExchange],
    ['mtls-handshakes-same-exchange', f.floorRatios.mtlsHandshakesOverSameExchange],
  ] as const)
    assert.equal(report.targets.find((t) => t.id === id)?.value, ratio, `${id} is judged by its ratio to the floor`);
  assert.match(stdout, /reference WFM CPU beside a bare node:https server/);
  // The fleet in 1 and 2 worker processes against a bare server: both answered, and the scaling and what the CPU
  // allows are computed from the figures beside them.
  const fw = f.fleetWorkers;
  for (const run of [fw.oneWorker, fw.twoWorkers]) {
    assert.ok(run.ok > 0 && run.failed === 0, `${run.workers} worker(s): ${run.ok} answered, ${run.failed} not`);
    for (const key of ['requestsPerSecond', 'clientCpuUsPerRequest', 'serverCpuUsPerRequest'] as const)
      assert.ok(isNumber(run[key]) && run[key] > 0, `${run.workers} worker(s): ${key}`);
  }
  assert.equal(
    f.floorRatios.fleetWorkersScaling,
    Math.round((fw.twoWorkers.requestsPerSecond / fw.oneWorker.requestsPerSecond) * 100) / 100,
  );
  const [c, sv] = [fw.oneWorker.clientCpuUsPerRequest, fw.oneWorker.serverCpuUsPerRequest];
  const allows = (n: number) => Math.min(n / c, 1 / sv, report.machine.cpus / (c + sv));
  assert.equal(f.floorRatios.fleetWorkersScalingBound, Math.round((allows(2) / allows(1)) * 100) / 100);
  assert.equal(f.floorRatios.fleetWorkerRatePerCore, Math.round(1e6 / c));
  assert.equal(f.floorRatios.fleetWorkersRateOn16Cores, Math.round(16e6 / c));
  assert.match(stdout, /the fleet over worker processes: unsigned PUTs\/s, 2 workers \/ 1/);
  for (const t of report.targets) {
    assert.ok(isNumber(t.value) && isNumber(t.target) && ['>=', '<=', '<'].includes(t.comparison), t.id);
    assert.equal(typeof t.met, 'boolean');
    assert.equal(t.missedBy === undefined, t.met, `${t.id}: a missed target says by how much`);
  }
  assert.ok(
    report.notes.some((n) => n.includes('alive')),
    'the output says what "alive" means',
  );
  assert.ok(
    report.notes.some((n) => n.includes('minted before the clock')),
    'and who pays for the certificates',
  );
  assert.match(stdout, /^wfmck bench --quick: /);
  for (const t of report.targets) assert.ok(stdout.includes(t.figure), `the table has a row for ${t.id}`);
});

test('bench --only measures just the figures named, and refuses a figure it does not know', { timeout: 120_000 }, async () => {
  const out = await mkdtemp(join(tmpdir(), 'wfmck-bench-only-'));
  const run = async (...args: string[]) => {
    const child = spawn(process.execPath, [...TYPESCRIPT, runner, '--quick', '--out', out, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const [code] = await once(child, 'exit');
    return { code, stderr };
  };
  const only = await run('--only', 'floors,acceptanceFleet');
  assert.equal(only.code, 0, only.stderr);
  const report = JSON.parse(await readFile(join(out, 'bench.json'), 'utf8')) as BenchReport;
  assert.deepEqual(
    Object.keys(report.figures)
      .filter((k) => !['ratios', 'floorRatios', 'wfmCost'].includes(k))
      .sort(),
    ['acceptanceFleet', 'floors'],
  );
  assert.deepEqual(
    report.targets.map((t) => t.id),
    ['kit-sign-floor', 'acceptance-fleet-start'],
  );
  const bad = await run('--only', 'floors,speed');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--only: no figure speed; figures: floors, requestRate/);
});
