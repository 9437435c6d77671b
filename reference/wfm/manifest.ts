// P4 state manifest: rebuilt on every change of a client's deployments, with a strictly increasing manifestVersion.
import { mediaTypes } from '../../spec/media-types.ts';
import { digestOf } from '../../spec/rules/desired-state.ts';
import type { StateManifest } from '../../spec/types.ts';
import { NO_FAULTS, type ActiveFaults } from '../faults/types.ts';
import { deploymentBundle, type BundleFile } from './bundle.ts';
import { faultyDeployment, servedDigest, servedPath, servedVersion } from './manifest-faults.ts';
import type { Client, ServedManifest } from './store.ts';

/** Absolute paths, resolved against the manifest's own URL: the paths P4 shows (P10: the caller's own, no clientId). */
export function desiredStatePaths(client: Pick<Client, 'clientId' | 'deploymentsPath'>) {
  const base = client.deploymentsPath === 'caller' ? '/api/v1' : `/api/v1/clients/${client.clientId}`;
  return {
    manifest: `${base}/deployments`,
    deployment: (deploymentId: string, digest: string) => `${base}/deployments/${deploymentId}/${digest}`,
    bundle: (digest: string) => `${base}/bundles/${digest}`,
  };
}

/** The faults of the WFM that onboarded a client: manifests are rebuilt from hooks, which carry no request context. */
export const clientFaults = new WeakMap<Client, ActiveFaults>();

/** Who a new client is: its id and how its requests name it (P3 keyid and key, or its P10 SPIFFE ID). */
export type ClientIdentity = Pick<Client, 'clientId' | 'keyId'> & Partial<Pick<Client, 'publicKey' | 'algorithm' | 'spiffeId'>>;

/**
 * A new client with nothing registered or assigned yet and its first manifest (version 1: §2.4.1 rule 7, P4, P10),
 * not yet in the store: the caller adds it unless a concurrent request added the same one first.
 */
export async function newClient(ctx: { profile: { deploymentsPath: Client['deploymentsPath']; vendor: string }; faults: ActiveFaults }, identity: ClientIdentity): Promise<Client> {
  const client: Client = {
    ...identity,
    retired: false,
    deploymentsPath: ctx.profile.deploymentsPath,
    devices: new Map(),
    deployments: new Map(),
    active: [],
    manifest: { version: 0, bytes: Buffer.alloc(0), etag: '' },
    bundles: new Map(),
    statuses: new Map(),
  };
  clientFaults.set(client, ctx.faults);
  client.manifest = await buildManifest(client, 1, ctx.profile.vendor);
  return client;
}

/** The same files in another gzip encoding: bytes that differ from `built` (stored, should level 1 happen to match). */
async function otherBytes(files: BundleFile[], built: Buffer): Promise<Buffer> {
  const fast = await deploymentBundle(files, 1);
  return fast.equals(built) ? deploymentBundle(files, 0) : fast;
}

/** The manifest served at `version`; version 1 is a client's first manifest (§2.4.1 rule 7, P4). */
export async function buildManifest(client: Client, version: number, vendor: string): Promise<ServedManifest> {
  const faults = clientFaults.get(client) ?? NO_FAULTS;
  const paths = desiredStatePaths(client);
  const active = client.active.map((id) => client.deployments.get(id)!);
  for (const d of active) faultyDeployment(faults, d);
  let bundle: StateManifest['bundle'] = null;
  // DS-BUNDLE-NULL-WHEN-EMPTY: an empty archive is offered when there is nothing to deploy.
  // MIAF-DS-BUNDLE-NULL: the same, judged by the miaf rule (bundle present and null).
  if (active.length > 0 || faults.has('DS-BUNDLE-NULL-WHEN-EMPTY') || faults.has('MIAF-DS-BUNDLE-NULL')) {
    const files: BundleFile[] = active.map((d) => ({ name: `${d.deploymentId}.yaml`, bytes: d.yaml }));
    // DS-BUNDLE-CONTENTS (and judging mode's defect bundle-extra-file): the bundle carries a file that is no deployment.
    const extra = faults.has('DS-BUNDLE-CONTENTS') || active.some((d) => d.defect === 'bundle-extra-file');
    if (extra) files.push({ name: 'NOTES.txt', bytes: Buffer.from('not a deployment\n') });
    const built = await deploymentBundle(files);
    const digest = digestOf(built);
    // Judging mode, defect bundle-digest: the same files, compressed otherwise, under the digest of the first bytes.
    const bytes = active.some((d) => d.defect === 'bundle-digest') ? await otherBytes(files, built) : built;
    // DS-BUNDLE-IMMUTABLE:forgotten: earlier bundle URLs stop answering once the manifest moves on.
    if (faults.has('DS-BUNDLE-IMMUTABLE:forgotten')) client.bundles.clear();
    client.bundles.set(digest, bytes);
    // DS-BUNDLE-DESCRIPTOR: labelled as plain gzip.
    const mediaType = faults.has('DS-BUNDLE-DESCRIPTOR') ? 'application/gzip' : mediaTypes(vendor).deploymentBundle;
    bundle = { mediaType, digest: servedDigest(faults, digest), sizeBytes: bytes.length, url: servedPath(faults, paths.bundle(digest)) };
  }
  const deployments = active.map((d) => ({
    deploymentId: d.deploymentId,
    digest: servedDigest(faults, d.digest),
    sizeBytes: d.yaml.length,
    url: servedPath(faults, paths.deployment(d.deploymentId, d.digest)),
  }));
  // DS-DEPLOYMENTS-ENTRIES: the first deployment is listed twice.
  if (faults.has('DS-DEPLOYMENTS-ENTRIES') && deployments.length > 0) deployments.push(deployments[0]!);
  const manifest: StateManifest = { manifestVersion: servedVersion(faults, version), bundle, deployments };
  const bytes = Buffer.from(JSON.stringify(manifest), 'utf8');
  return { version, bytes, etag: `"${digestOf(bytes)}"` };
}
