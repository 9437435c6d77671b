// Raw HTTP against a registry for the observation tests: plain fetch, so what is seen is the registry, not the kit's client.
import { after, before } from 'node:test';
import { createHash } from 'node:crypto';
import { OCI_EMPTY_DESCRIPTOR, OCI_MANIFEST } from '../../spec/media-types.ts';
import { startRealRegistry, type RunningRealRegistry } from '../../scripted/real-registry.ts';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export const sha256 = (bytes: Uint8Array | string): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

export async function send(
  base: string,
  method: string,
  path: string,
  init: { body?: Uint8Array | string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await fetch(new URL(path, base), { method, redirect: 'manual', ...init });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** POST then PUT, the one monolithic upload every registry supports. */
export async function putBlob(base: string, name: string, bytes: Uint8Array | string): Promise<string> {
  const digest = sha256(bytes);
  const post = await send(base, 'POST', `/v2/${name}/blobs/uploads/`);
  const location = new URL(post.headers.get('location') ?? '', base);
  location.searchParams.set('digest', digest);
  const put = await send(base, 'PUT', location.href, { body: bytes, headers: { 'Content-Type': 'application/octet-stream' } });
  if (put.status !== 201) throw new Error(`blob upload failed: ${put.status} ${put.text}`);
  return digest;
}

/** A one-layer OCI manifest over `layer` (blobs pushed first), pushed under `reference`: its digest and the PUT answer. */
export async function pushManifest(
  base: string,
  name: string,
  reference: string,
  layer = 'layer',
  extra: Record<string, unknown> = {},
): Promise<{ digest: string; put: Answer }> {
  await putBlob(base, name, '{}');
  const manifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: { mediaType: OCI_EMPTY_DESCRIPTOR.mediaType, digest: OCI_EMPTY_DESCRIPTOR.digest, size: 2 },
    layers: [{ mediaType: 'application/octet-stream', digest: await putBlob(base, name, layer), size: Buffer.byteLength(layer) }],
    ...extra,
  });
  const put = await send(base, 'PUT', `/v2/${name}/manifests/${reference}`, { body: manifest, headers: { 'Content-Type': OCI_MANIFEST } });
  return { digest: sha256(manifest), put };
}

/** pushManifest that must succeed; returns the digest. */
export async function putManifest(
  base: string,
  name: string,
  reference: string,
  layer = 'layer',
  extra: Record<string, unknown> = {},
): Promise<string> {
  const { digest, put } = await pushManifest(base, name, reference, layer, extra);
  if (put.status !== 201) throw new Error(`manifest push failed: ${put.status} ${put.text}`);
  return digest;
}

/**
 * The real registry (docker-registry) for the whole test file; a missing binary fails the file, never skips it.
 * `ready()` starts it on first use, so another top-level hook can await it whatever order the hooks run in.
 */
export function useRealRegistry(): { readonly current: RunningRealRegistry; ready(): Promise<RunningRealRegistry> } {
  let started: Promise<RunningRealRegistry> | undefined;
  let registry: RunningRealRegistry | undefined;
  const ready = () =>
    (started ??= startRealRegistry().then((r) => {
      registry = r;
      return r;
    }));
  before(() => ready());
  after(async () => {
    await (await started?.catch(() => undefined))?.close();
  });
  return {
    ready,
    get current() {
      if (!registry) throw new Error('real registry not started');
      return registry;
    },
  };
}

let unique = 0;
/** A repository name no other probe of this process uses. */
export const freshName = (label: string): string => `probe/${label}-${process.pid}-${++unique}`;
