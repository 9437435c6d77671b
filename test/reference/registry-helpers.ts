// Helpers for the kit's own tests of this registry: a fresh registry per test file and a few spec-shaped pushes
// over fetch, so each test body reads as the behaviour under test.
import { after, before, beforeEach } from 'node:test';
import { OCI_EMPTY_DESCRIPTOR, OCI_MANIFEST } from '../../spec/media-types.ts';
import { sha256Digest } from '../../reference/registry/grammar.ts';
import { startRegistry, type RunningRegistry, type StartRegistryOptions } from '../../reference/registry/server.ts';

export const EMPTY_CONFIG = {
  mediaType: OCI_EMPTY_DESCRIPTOR.mediaType,
  digest: OCI_EMPTY_DESCRIPTOR.digest,
  size: OCI_EMPTY_DESCRIPTOR.size,
};

export function digestOf(bytes: Uint8Array | string): string {
  return sha256Digest(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
}

/** Starts one registry for the file, empties it before each test, stops it after the file. */
export function useRegistry(opts: StartRegistryOptions = {}): { readonly current: RunningRegistry; url(path: string): string } {
  let registry: RunningRegistry | undefined;
  before(async () => {
    registry = await startRegistry(opts);
  });
  beforeEach(() => registry?.store.reset());
  after(() => registry?.close());
  const current = (): RunningRegistry => {
    if (!registry) throw new Error('registry not started');
    return registry;
  };
  return {
    get current() {
      return current();
    },
    url: (path: string) => new URL(path, current().url).href,
  };
}

/** POST then PUT, the spec's first monolithic push. */
export async function pushBlob(base: string, name: string, bytes: Uint8Array | string): Promise<string> {
  const digest = digestOf(bytes);
  const post = await fetch(`${base}/v2/${name}/blobs/uploads/`, { method: 'POST' });
  const location = new URL(post.headers.get('location') ?? '', base);
  location.searchParams.set('digest', digest);
  const put = await fetch(location, { method: 'PUT', body: bytes, headers: { 'Content-Type': 'application/octet-stream' } });
  if (put.status !== 201) throw new Error(`blob push failed: ${put.status} ${await put.text()}`);
  return digest;
}

export interface Layer {
  mediaType: string;
  bytes: string;
  annotations?: Record<string, string>;
}

export function imageManifest(layers: readonly Layer[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: EMPTY_CONFIG,
    layers: layers.map((l) => ({
      mediaType: l.mediaType,
      digest: digestOf(l.bytes),
      size: Buffer.byteLength(l.bytes),
      ...(l.annotations ? { annotations: l.annotations } : {}),
    })),
    ...extra,
  };
}

export function putManifest(
  base: string,
  name: string,
  reference: string,
  manifest: unknown,
  contentType = OCI_MANIFEST,
): Promise<Response> {
  const body = typeof manifest === 'string' ? manifest : JSON.stringify(manifest);
  return fetch(`${base}/v2/${name}/manifests/${reference}`, { method: 'PUT', body, headers: { 'Content-Type': contentType } });
}

/** Pushes the empty config, every layer and the manifest; answers the manifest's digest and bytes. */
export async function pushImage(
  base: string,
  name: string,
  reference: string,
  layers: readonly Layer[] = [{ mediaType: 'application/octet-stream', bytes: 'layer' }],
  extra: Record<string, unknown> = {},
): Promise<{ digest: string; bytes: string }> {
  await pushBlob(base, name, '{}');
  for (const layer of layers) await pushBlob(base, name, layer.bytes);
  const bytes = JSON.stringify(imageManifest(layers, extra));
  const res = await putManifest(base, name, reference, bytes);
  if (res.status !== 201) throw new Error(`manifest push failed: ${res.status} ${await res.text()}`);
  return { digest: digestOf(bytes), bytes };
}

export async function errorCodes(res: Response): Promise<string[]> {
  const body = (await res.json()) as { errors: { code: string }[] };
  return body.errors.map((e) => e.code);
}

/** fast-check prints `seed` and `path` on failure; WFMCK_SEED and WFMCK_PATH feed them back to replay that run. */
export function replayParameters(): { seed?: number; path?: string } {
  const { WFMCK_SEED: seed, WFMCK_PATH: path } = process.env;
  return { ...(seed ? { seed: Number(seed) } : {}), ...(path ? { path } : {}) };
}
