// Read-only snapshots of the reference WFM's state, for the kit's own tests (suites see only URLs and hooks).
import type { DeploymentStatusReport, DeviceCapabilities } from '../../spec/types.ts';
import type { WfmStore } from './store.ts';

export interface WfmStateView {
  clients(): { clientId: string; keyId: string; retired: boolean }[];
  /** The stored (normalised) capabilities of a client's devices, by deviceId. */
  devices(clientId: string): Record<string, DeviceCapabilities>;
  /** The last status report per deploymentId. */
  statuses(clientId: string): Record<string, DeploymentStatusReport>;
  manifestVersion(clientId: string): number | undefined;
}

export function stateView(store: WfmStore): WfmStateView {
  return {
    clients: () => [...store.clients.values()].map(({ clientId, keyId, retired }) => ({ clientId, keyId, retired })),
    devices: (clientId) => structuredClone(Object.fromEntries(store.client(clientId)?.devices ?? [])),
    statuses: (clientId) => structuredClone(Object.fromEntries(store.client(clientId)?.statuses ?? [])),
    manifestVersion: (clientId) => store.client(clientId)?.manifest.version,
  };
}
