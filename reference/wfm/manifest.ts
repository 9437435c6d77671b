// P4 state manifest: rebuilt on every change of a client's deployments, with a strictly increasing manifestVersion.
import { mediaTypes } from '../../spec/media-types.ts';
import { digestOf } from '../../spec/rules/desired-state.ts';
import type { StateManifest } from '../../spec/types.ts';
import { deploymentBundle } from './bundle.ts';
import type { Client, ServedManifest } from './store.ts';

/** Relative URLs, resolved against the manifest's own URL: the paths P4 shows, whatever host the client used. */
export const desiredStatePaths = {
  manifest: (clientId: string) => `/api/v1/clients/${clientId}/deployments`,
  deployment: (clientId: string, deploymentId: string, digest: string) => `/api/v1/clients/${clientId}/deployments/${deploymentId}/${digest}`,
  bundle: (clientId: string, digest: string) => `/api/v1/clients/${clientId}/bundles/${digest}`,
};

/** The manifest served at `version`; version 1 is a client's first manifest (§2.4.1 rule 7, P4). */
export async function buildManifest(client: Client, version: number, vendor: string): Promise<ServedManifest> {
  const active = client.active.map((id) => client.deployments.get(id)!);
  let bundle: StateManifest['bundle'] = null;
  if (active.length > 0) {
    const bytes = await deploymentBundle(active.map((d) => ({ name: `${d.deploymentId}.yaml`, bytes: d.yaml })));
    const digest = digestOf(bytes);
    client.bundles.set(digest, bytes);
    bundle = { mediaType: mediaTypes(vendor).deploymentBundle, digest, sizeBytes: bytes.length, url: desiredStatePaths.bundle(client.clientId, digest) };
  }
  const manifest: StateManifest = {
    manifestVersion: version,
    bundle,
    deployments: active.map((d) => ({
      deploymentId: d.deploymentId,
      digest: d.digest,
      sizeBytes: d.yaml.length,
      url: desiredStatePaths.deployment(client.clientId, d.deploymentId, d.digest),
    })),
  };
  const bytes = Buffer.from(JSON.stringify(manifest), 'utf8');
  return { version, bytes, etag: `"${digestOf(bytes)}"` };
}
