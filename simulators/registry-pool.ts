// The registry clients of one device or fleet: one per registry origin a component names (`oci://host[:port]/name`),
// each over the transport `open` gives it. Components name their registry; a simulated device still pulls only from
// a named target or loopback (spec/network-policy.ts).
import { mayContact, refusal } from '../spec/network-policy.ts';
import { RegistryClient } from './registry-client.ts';
import type { Transport } from './transport/types.ts';

export interface RegistryPool {
  /** The client for the registry of `oci://host[:port]/...` (called with `oci://host[:port]`). */
  client(repositoryUrl: string): RegistryClient;
  /** Closes every transport the pool opened. */
  close(): Promise<void>;
}

export function registryPool(open: (origin: string) => Transport, who = 'simulated devices'): RegistryPool {
  const clients = new Map<string, RegistryClient>();
  const transports: Transport[] = [];
  return {
    client(repositoryUrl) {
      const origin = `https://${repositoryUrl.replace(/^oci:\/\//, '')}`;
      const { hostname } = new URL(origin);
      if (!mayContact(hostname)) throw new Error(`${who} do not pull from ${repositoryUrl}: ${refusal(hostname)}`);
      let client = clients.get(origin);
      if (!client) {
        const transport = open(origin);
        transports.push(transport);
        clients.set(origin, (client = new RegistryClient({ transport })));
      }
      return client;
    },
    close: async () => void (await Promise.allSettled(transports.map((t) => t.close()))),
  };
}
