// The kit's own simulated client as the client under test of a self-check (device persona without a vendor's hooks):
// startClient, stopClient, removeChild, disconnectChild and changeCapabilities run it in this process. It lives in the
// run layer because it wires the simulators to the embedded reference services, which never import them.
import { randomUUID } from 'node:crypto';
import type { Hook } from '../../reference/admin.ts';
import { diskKey, startClientRunner, type ClientDisk, type RunningClient } from '../../simulators/client-runner.ts';
import { startClientAnswer, type StartClientInput } from '../../simulators/client-contract.ts';

export function kitClientHooks(started: { close(): Promise<void> }[]): Record<string, Hook> {
  const running = new Map<string, RunningClient>();
  // Each simulated client's disk, by its certificate: what it keeps across a stop and a restart.
  const disks = new Map<string, ClientDisk>();
  // Clients still running when the services stop are stopped first.
  started.push({ close: async () => void (await Promise.allSettled([...running.values()].map((c) => c.stop()))) });
  return {
    async startClient(input) {
      const restart = input['restart'];
      if (restart !== undefined && restart !== 'keep-state' && restart !== 'lose-state')
        throw new Error(`startClient: restart is keep-state or lose-state, not ${JSON.stringify(restart)}`);
      const key = diskKey(String(input['certPem'] ?? ''));
      const lost = restart === 'lose-state' ? disks.get(key) : undefined;
      const disk = (restart === 'keep-state' && disks.get(key)) || {};
      disks.set(key, disk);
      const client = await startClientRunner(input as unknown as StartClientInput, disk, lost);
      const handle = randomUUID();
      running.set(handle, client);
      return { handle, ...startClientAnswer(client) };
    },
    async removeChild(input) {
      const client = running.get(String(input['handle'] ?? ''));
      if (!client) throw new Error(`removeChild: no running client ${String(input['handle'] ?? '')}`);
      await client.removeChild(String(input['deviceId'] ?? ''));
      return {};
    },
    async disconnectChild(input) {
      const client = running.get(String(input['handle'] ?? ''));
      if (!client) throw new Error(`disconnectChild: no running client ${String(input['handle'] ?? '')}`);
      await client.disconnectChild(String(input['deviceId'] ?? ''));
      return {};
    },
    async changeCapabilities(input) {
      const client = running.get(String(input['handle'] ?? ''));
      if (!client) throw new Error(`changeCapabilities: no running client ${String(input['handle'] ?? '')}`);
      await client.changeCapabilities();
      return {};
    },
    async stopClient(input) {
      const handle = String(input['handle'] ?? '');
      const client = running.get(handle);
      if (!client) throw new Error(`stopClient: no running client ${handle}`);
      running.delete(handle);
      await client.stop();
      return {};
    },
  };
}
