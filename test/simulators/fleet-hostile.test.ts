// The "Done when": a fleet against a hostile target ends within its timeouts, fails, and lists every failure
// with its transport code and the exchange that shows it, without its memory growing on an endless body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  endlessBodyServer,
  garbageServer,
  hangServer,
  longBodyServer,
  resetServer,
  shortBodyServer,
  slowHeadersServer,
  untrustedTlsServer,
  type HostileServer,
} from '../../scripted/hostile-servers.ts';
import { createRootCa } from '../../protocol/pki.ts';
import { runFleet } from '../../simulators/fleet/runner.ts';
import { resolveFleetSpec } from '../../simulators/fleet/spec.ts';
import { fleetSummary } from '../../simulators/fleet/summary.ts';

const deviceCa = await createRootCa('hostile test device CA');
const TIMEOUT_MS = 500;
/** 3 start attempts × 3 transport attempts × the timeout, plus backoff, with room for a loaded machine. */
const BOUND_MS = 15_000;

interface Case {
  start: () => Promise<HostileServer>;
  /** What the summary must show: a transport code, or the HTTP status of an answer that is not what was asked. */
  shows: { code: string } | { status: number };
}

const CASES: Record<string, Case> = {
  'hangs after accepting': { start: hangServer, shows: { code: 'WFMCK_E_TIMEOUT' } },
  'resets the connection': { start: resetServer, shows: { code: 'WFMCK_E_CONNECTION' } },
  'answers garbage': { start: garbageServer, shows: { code: 'WFMCK_E_PROTOCOL' } },
  'announces more bytes than it sends': { start: shortBodyServer, shows: { code: 'WFMCK_E_PROTOCOL' } },
  // The first 10 bytes are a 200 whose body is no root CA; the 90 after them are never read as another answer.
  'sends more bytes than it announces': { start: longBodyServer, shows: { status: 200 } },
  'streams an endless body': { start: endlessBodyServer, shows: { code: 'WFMCK_E_RESPONSE_TOO_LARGE' } },
  'sends its headers one line at a time, forever': { start: slowHeadersServer, shows: { code: 'WFMCK_E_TIMEOUT' } },
};

for (const [defect, { start, shows }] of Object.entries(CASES)) {
  test(`a WFM that ${defect}: the fleet fails within its timeouts, with evidence`, { timeout: 60_000 }, async () => {
    const server = await start();
    try {
      const rssBefore = process.memoryUsage.rss();
      const began = performance.now();
      const result = await runFleet(resolveFleetSpec({ devices: 5, duration: 0, timeout: TIMEOUT_MS, concurrency: 5, seed: 41 }), {
        wfm: server.url,
        deviceCa,
      });
      const elapsed = performance.now() - began;
      assert.ok(elapsed < BOUND_MS, `ended in ${Math.round(elapsed)} ms`);
      assert.equal(result.passed, false);
      assert.deepEqual(result.totals.clients, { created: 5, onboarded: 0, reporting: 0, failed: 5 });
      const summary = fleetSummary(result, { wfm: server.url });
      const entry = summary.unexpected.find((u) => ('code' in shows ? u.code === shows.code : u.status === shows.status));
      assert.ok(
        entry,
        `summary lists ${JSON.stringify(shows)}: ${JSON.stringify(summary.unexpected.map((u) => [u.code ?? u.status, u.message]))}`,
      );
      assert.equal(entry.endpoint, 'certificate', 'the first request of the client sequence (§1 step 2)');
      assert.equal(entry.exchange?.method, 'GET');
      assert.ok(entry.exchange?.url.startsWith(server.url), entry.exchange?.url);
      if ('code' in shows) assert.equal(entry.exchange?.error?.code, shows.code);
      assert.equal(result.totals.requests.aborted, 0);
      // An endless body is cut at the 1 MiB cap; 5 devices × 9 attempts never hold more than a few of them at once.
      assert.ok(
        result.peakRssBytes - rssBefore < 200 * 1024 * 1024,
        `RSS grew by ${Math.round((result.peakRssBytes - rssBefore) / 1e6)} MB`,
      );
    } finally {
      await server.close();
    }
  });
}

test('a WFM whose TLS certificate chains to a CA the fleet was not given: WFMCK_E_TLS, never a pass', async () => {
  const server = await untrustedTlsServer();
  try {
    const result = await runFleet(resolveFleetSpec({ devices: 3, duration: 0, timeout: TIMEOUT_MS, seed: 42 }), {
      wfm: server.url,
      deviceCa,
    });
    assert.equal(result.passed, false);
    assert.equal(result.totals.clients.failed, 3);
    assert.equal(result.totals.unexpected[0]?.code, 'WFMCK_E_TLS');
  } finally {
    await server.close();
  }
});
