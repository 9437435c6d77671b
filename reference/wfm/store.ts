// The reference WFM's in-memory state: clients, their devices, deployments, manifests and status reports.
import type { KeyObject } from 'node:crypto';
import type { DeploymentStatusReport, DeviceCapabilities } from '../../spec/types.ts';

export interface Client {
  clientId: string;
  /** P3: lowercase hex SHA-256 of the certificate DER; the signature's keyid names the client. miaf: the SPIFFE ID. */
  keyId: string;
  /** P3: the onboarded certificate's key (absent for a miaf client, which signs nothing). */
  publicKey?: KeyObject;
  algorithm?: string;
  /** P10 (miaf): the SPIFFE ID the policy admitted; the client's requests come over connections proving it. */
  spiffeId?: string;
  /** P4/P10: where its desired state is served: under /api/v1/clients/{clientId} or at the caller's /api/v1/deployments. */
  deploymentsPath: 'per-client' | 'caller';
  retired: boolean;
  devices: Map<string, DeviceCapabilities>;
  /** Every deployment the client may still report on, removed ones included until reported `removed`. */
  deployments: Map<string, Deployment>;
  /** Ids in the current state manifest, in assignment order. */
  active: string[];
  manifest: ServedManifest;
  /** Every bundle the client was ever offered: bundle URLs are immutable (P4). */
  bundles: Map<string, Buffer>;
  statuses: Map<string, DeploymentStatusReport>;
}

export interface Deployment {
  deploymentId: string;
  deviceId: string;
  componentNames: string[];
  yaml: Buffer;
  digest: string;
  /** The first manifestVersion that carried it: no report can have adopted it from an older one. */
  addedInVersion: number;
  /** Each specification it had, oldest first, from the manifestVersion that first carried it (an update adds one). */
  revisions: { since: number; componentNames: string[] }[];
  removed: boolean;
  /** Judging mode (persona device): the negative fixture this deployment is served as; see DEPLOYMENT_DEFECTS. */
  defect?: DeploymentDefect;
  /** Defect yaml-digest: the bytes its URL serves instead of `yaml` (whose digest the manifest names). */
  servedYaml?: Buffer;
}

export { DEPLOYMENT_DEFECTS, type DeploymentDefect } from '../../protocol/judging-record.ts';
import type { DeploymentDefect } from '../../protocol/judging-record.ts';

/** §2.4.1 rule 3: the components of the revision a report's adoptedManifestVersion names (a client may be on an older one). */
export function componentNamesAt(deployment: Deployment, version: number): string[] {
  const held = deployment.revisions.filter((r) => r.since <= version).at(-1);
  return held?.componentNames ?? deployment.componentNames;
}

export interface ServedManifest {
  version: number;
  bytes: Buffer;
  etag: string;
}

export class WfmStore {
  readonly clients = new Map<string, Client>();
  readonly byKeyId = new Map<string, Client>();
  readonly bySpiffeId = new Map<string, Client>();
  /** keyids of certificates the trustClientCertificate hook made trusted regardless of their issuer. */
  readonly trustedKeyIds = new Set<string>();

  add(client: Client): void {
    this.clients.set(client.clientId, client);
    this.byKeyId.set(client.keyId, client);
    if (client.spiffeId !== undefined) this.bySpiffeId.set(client.spiffeId, client);
  }

  client(clientId: string): Client | undefined {
    return this.clients.get(clientId);
  }
}
