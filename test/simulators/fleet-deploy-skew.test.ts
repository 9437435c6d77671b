// Clock skew: a device's clockSkewSeconds fault shifts the `created` of every signature it sends (P3). The fault
// mix only draws skews inside the reference's tolerance (60 s ahead, 300 s old), so a correct WFM accepts them all;
// a skew beyond it is refused with 401 at onboarding and counted as unexpected, which fails the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeFleet } from '../../simulators/data/describe.ts';
import { realEnvironment } from '../../simulators/fleet/devices.ts';
import { runFleet, type EnvironmentFactory } from '../../simulators/fleet/runner.ts';
import { resolveFleetSpec } from '../../simulators/fleet/spec.ts';
import { DEFAULT_CLOCK_SKEW_SECONDS, DEFAULT_MAX_AGE_SECONDS } from '../../protocol/signing.ts';
import { createTransport } from '../../simulators/transport/undici-transport.ts';
import { embeddedFleetTarget } from './fleet-deploy-target.ts';

const shared = embeddedFleetTarget();

/** The real environment, with every device's clock set `skew` seconds off whatever the fault mix drew. */
const skewedBy =
  (skew: number): EnvironmentFactory =>
  async (t, limiter, settings) => {
    const env = await realEnvironment(t, limiter, settings);
    return { ...env, createDevice: (desc, ctx) => env.createDevice({ ...desc, faults: { ...desc.faults, clockSkewSeconds: skew } }, ctx) };
  };

test('a signer with clockSkewSeconds signs with created shifted by that much', async () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => (seen.push(req.headers), res.end('{}'))).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const transport = createTransport({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  try {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    for (const clockSkewSeconds of [0, 45, -250]) {
      const now = Math.floor(Date.now() / 1000);
      await transport.request({
        method: 'GET',
        url: '/x',
        signer: { keyId: 'k', privateKey, algorithm: 'ecdsa-p256-sha256', clockSkewSeconds },
      });
      const created = Number(/;created=(-?\d+)/.exec(String(seen.at(-1)!['signature-input']))![1]);
      assert.ok(Math.abs(created - (now + clockSkewSeconds)) <= 1, `skew ${clockSkewSeconds}: created ${created}, now ${now}`);
    }
  } finally {
    await transport.close();
    server.close();
  }
});

test('the fault mix draws skews inside the tolerance only, both ways', () => {
  const spec = resolveFleetSpec({ devices: 300, faults: { clockSkewSeconds: 1 }, seed: 31 });
  const skews = [...describeFleet(spec)].map((d) => d.faults.clockSkewSeconds!);
  assert.ok(
    skews.every((s) => Math.abs(s) >= 5 && s < DEFAULT_CLOCK_SKEW_SECONDS && -s < DEFAULT_MAX_AGE_SECONDS),
    String(skews),
  );
  assert.ok(skews.some((s) => s > 0) && skews.some((s) => s < 0));
});

test('a fleet whose every device has a skewed clock still onboards, reports and deploys on a correct WFM', async () => {
  const result = await runFleet(resolveFleetSpec({ devices: 8, faults: { clockSkewSeconds: 1 }, duration: 0, seed: 32 }), shared.target);
  assert.equal(result.passed, true, JSON.stringify(result.totals.unexpected));
  assert.equal(result.totals.clients.reporting, 8);
  assert.equal(result.totals.deployments.installed, 8, 'status reports are signed too');
});

test('the edges of the tolerance pass: 55 s ahead, 290 s behind', async () => {
  for (const skew of [55, -290]) {
    const result = await runFleet(resolveFleetSpec({ devices: 2, duration: 0, seed: 33 }), shared.target, { environment: skewedBy(skew) });
    assert.equal(result.passed, true, `skew ${skew}: ${JSON.stringify(result.totals.unexpected)}`);
  }
});

test('beyond the tolerance the WFM answers 401 at onboarding: unexpected, with the exchange, and the run fails', async () => {
  for (const [skew, why] of [
    [120, /future/],
    [-400, /too old/],
  ] as const) {
    const result = await runFleet(resolveFleetSpec({ devices: 3, duration: 0, seed: 34 }), shared.target, { environment: skewedBy(skew) });
    assert.equal(result.passed, false);
    assert.deepEqual(result.totals.clients, { created: 3, onboarded: 0, reporting: 0, failed: 3 });
    assert.deepEqual(result.totals.errors, { '401': 3 });
    const [entry] = result.totals.unexpected;
    assert.equal(entry!.endpoint, 'onboarding');
    assert.equal(entry!.status, 401);
    assert.match(entry!.message, why);
    assert.match(entry!.exchange!.requestHeaders['signature-input']!, /created=\d+/);
  }
});
