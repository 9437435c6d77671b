// A fleet whose deployments point at a registry that hangs: every device gives up within the fleet's timeout,
// reports its deployment failed, and the run fails with that failure listed (no fault of the device explains it).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { hangServer, type HostileServer } from '../../scripted/hostile-servers.ts';
import { startEmbedded, type Embedded } from '../../run/processes/embedded.ts';
import { assignerOf } from '../../simulators/fleet/assigned-deployments.ts';
import { runFleet } from '../../simulators/fleet/runner.ts';
import { resolveFleetSpec } from '../../simulators/fleet/spec.ts';

let embedded: Embedded;
let registry: HostileServer;

before(async () => {
  embedded = await startEmbedded();
  registry = await hangServer();
});
after(() => Promise.all([embedded.close(), registry.close()]));

test(
  'a registry that accepts and never answers: REGISTRY_UNREACHABLE for every deployment, within the timeouts',
  { timeout: 60_000 },
  async () => {
    const component = { name: 'hello-compose', repository: `oci://${new URL(registry.url).host}/wfmck/hello-compose`, revision: '1.0.0' };
    const target = {
      wfm: embedded.wfm,
      ca: embedded.caPem,
      deviceCa: embedded.deviceCa,
      deployments: { components: [component], assign: assignerOf(embedded.hooks['assignDeployment']!) },
    };
    const began = performance.now();
    const result = await runFleet(resolveFleetSpec({ devices: 3, duration: 0, timeout: 500, seed: 43 }), target);
    assert.ok(performance.now() - began < 20_000, `ended in ${Math.round(performance.now() - began)} ms`);
    assert.equal(result.totals.clients.reporting, 3, 'the WFM itself is fine');
    assert.deepEqual(result.totals.deployments.failed, { REGISTRY_UNREACHABLE: 3 });
    assert.equal(result.totals.deployments.installed, 0);
    const entry = result.totals.unexpected.find((u) => u.code === 'REGISTRY_UNREACHABLE');
    assert.ok(entry, JSON.stringify(result.totals.unexpected));
    assert.match(entry.message, /timed out|no complete response/);
    assert.equal(entry.count, 3);
    assert.equal(result.passed, false);
  },
);
