// The embedded default in a child process: the same services (a WFM that onboards a device of the device CA it was
// given), hooks run in the child, its CPU measured, and the child gone when the parent closes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRootCa } from '../../protocol/pki.ts';
import { startEmbeddedProcess } from '../../run/processes/embedded-process.ts';
import { resolveProfile } from '../../spec/profile.ts';
import { request, Agent } from 'undici';

test(
  'startEmbeddedProcess: the services answer, trust the device CA given, run hooks in the child, and end with close',
  { timeout: 60_000 },
  async () => {
    const deviceCa = await createRootCa('embedded-process device CA');
    const embedded = await startEmbeddedProcess({ profile: resolveProfile(), deviceCa });
    try {
      assert.equal(embedded.deviceCa, deviceCa);
      const agent = new Agent({ connect: { ca: embedded.caPem } });
      const root = await request(`${embedded.wfm}${resolveProfile().certificatePath}`, { dispatcher: agent });
      assert.equal(root.statusCode, 200);
      await root.body.dump();
      await agent.close();
      assert.deepEqual(Object.keys(embedded.hooks).sort().slice(0, 2), ['assignDeployment', 'removeDeployment']);
      // A hook's refusal travels back as the child's error message.
      await assert.rejects(embedded.hooks['assignDeployment']!({}), (e: Error) => e.message.length > 0);
      const cpu = await embedded.cpu();
      assert.ok(cpu.user > 0 && cpu.maxRssBytes > 10_000_000, JSON.stringify(cpu));
    } finally {
      await embedded.close();
    }
    await assert.rejects(embedded.cpu(), /process ended/);
  },
);
