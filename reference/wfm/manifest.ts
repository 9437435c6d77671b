// P4 state manifest: rebuilt on every change of a client's deployments, with a strictly increasing manifestVersion.
import { mediaTypes } from '../../spec/media-types.ts';
import { digestOf } from '../../spec/rules/desired-state.ts';
import type { StateManifest } from '../../spec/types.ts';
import { deploymentBundle, type BundleFile } from './bundle.ts';
import type { DesiredStateDecisions } from './decisions/index.ts';
import type { Client, Deployment, ServedManifest } from './store.ts';

/** Absolute paths, resolved against the manifest's own URL: the paths P4 shows (P10: the caller's own, no clientId). */
export function desiredStatePaths(client: Pick<Client, 'clientId' | 'deploymentsPath'>) {
  const base = client.deploymentsPath === 'caller' ? '/api/v1' : `/api/v1/clients/${client.clientId}`;
  return {
    manifest: `${base}/deployments`,
    deployment: (deploymentId: string, digest: string) => `${base}/deployments/${deploymentId}/${digest}`,
    bundle: (digest: string) => `${base}/bundles/${digest}`,
  };
}

/** Who a new client is: its id and how its requests name it (P3 keyid and key, or its P10 SPIFFE ID). */
export type ClientIdentity = Pick<Client, 'clientId' | 'keyId'> & Partial<Pick<Client, 'publicKey' | 'algorithm' | 'spiffeId'>>;

/**
 * A new client with nothing registered or assigned yet and its first manifest (version 1: §2.4.1 rule 7, P4, P10),
 * not yet in the store: the caller adds it unless a concurrent request added the same one first.
 */
export async function newClient(
  ctx: { profile: { deploymentsPath: Client['deploymentsPath']; vendor: string }; decisions: DesiredStateDecisions },
  identity: ClientIdentity,
): Promise<Client> {
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
  client.manifest = await buildManifest(client, 1, ctx.profile.vendor, ctx.decisions);
  return client;
}

/** The same files in another gzip encoding: bytes that differ from `built` (stored, should level 1 happen to match). */
async function otherBytes(files: BundleFile[], built: Buffer): Promise<Buffer> {
  const fast = await deploymentBundle(files, 1);
  return fast.equals(built) ? deploymentBundle(files, 0) : fast;
}

/** The manifest served at `version`; version 1 is a client's first manifest (§2.4.1 rule 7, P4). */
export async function buildManifest(
  client: Client,
  version: number,
  vendor: string,
  decisions: DesiredStateDecisions,
): Promise<ServedManifest> {
  const paths = desiredStatePaths(client);
  const active = client.active.map((id) => client.deployments.get(id)!);
  for (const d of active) publish(d, decisions);
  let bundle: StateManifest['bundle'] = null;
  if (active.length > 0 || decisions.offersEmptyBundle) {
    const files: BundleFile[] = active.map((d) => ({ name: `${d.deploymentId}.yaml`, bytes: d.yaml }));
    // Judging mode's defect bundle-extra-file: the bundle carries a file that is no deployment.
    const extra = !decisions.bundleHoldsOnlyDeployments || active.some((d) => d.defect === 'bundle-extra-file');
    if (extra) files.push({ name: 'NOTES.txt', bytes: Buffer.from('not a deployment\n') });
    const built = await deploymentBundle(files);
    const digest = digestOf(built);
    // Judging mode, defect bundle-digest: the same files, compressed otherwise, under the digest of the first bytes.
    const bytes = active.some((d) => d.defect === 'bundle-digest') ? await otherBytes(files, built) : built;
    if (!decisions.keepsEarlierBundles) client.bundles.clear();
    client.bundles.set(digest, bytes);
    const mediaType = decisions.bundleMediaType(mediaTypes(vendor).deploymentBundle);
    bundle = {
      mediaType,
      digest: decisions.servedDigest(digest),
      sizeBytes: bytes.length,
      url: decisions.servedPath(paths.bundle(digest)),
    };
  }
  const deployments = decisions.manifestEntries(
    active.map((d) => ({
      deploymentId: d.deploymentId,
      digest: decisions.servedDigest(d.digest),
      sizeBytes: d.yaml.length,
      url: decisions.servedPath(paths.deployment(d.deploymentId, d.digest)),
    })),
  );
  const manifest: StateManifest = { manifestVersion: decisions.servedManifestVersion(version), bundle, deployments };
  const bytes = Buffer.from(JSON.stringify(manifest), 'utf8');
  return { version, bytes, etag: `"${digestOf(bytes)}"` };
}

/** The YAML a deployment is published as: a faulty WFM may rewrite it (and so its digest) at every manifest. */
function publish(deployment: Deployment, decisions: DesiredStateDecisions): void {
  const yaml = decisions.servedDeploymentYaml(deployment.yaml);
  if (yaml === deployment.yaml) return;
  deployment.yaml = yaml;
  deployment.digest = digestOf(yaml);
}
