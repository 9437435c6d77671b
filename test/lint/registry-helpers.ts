// Hand-built §2.7 artifacts pushed with the kit's RegistryClient, independent of `wfmck publish`.
import { createHash } from 'node:crypto';
import { OCI_EMPTY_DESCRIPTOR, OCI_MANIFEST } from '../../spec/media-types.ts';
import { RegistryClient } from '../../simulators/registry-client.ts';
import { createTransport } from '../../simulators/transport/undici-transport.ts';

export interface Part {
  mediaType: string;
  bytes: string | Uint8Array;
  title?: string;
  /** Value of org.platform.app.resource (a resource layer). */
  resource?: string | undefined;
  annotations?: Record<string, string>;
}

export interface Artifact {
  manifest: Record<string, unknown>;
  blobs: Uint8Array[];
}

const EMPTY = new TextEncoder().encode('{}');
const bytesOf = (b: string | Uint8Array) => (typeof b === 'string' ? new TextEncoder().encode(b) : b);
const digest = (b: Uint8Array) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const CONFIG = { mediaType: OCI_EMPTY_DESCRIPTOR.mediaType, digest: OCI_EMPTY_DESCRIPTOR.digest, size: OCI_EMPTY_DESCRIPTOR.size };

function layer(p: Part): Record<string, unknown> {
  const b = bytesOf(p.bytes);
  const annotations = {
    ...(p.title ? { 'org.opencontainers.image.title': p.title } : {}),
    ...(p.resource ? { 'org.platform.app.resource': p.resource } : {}),
    ...p.annotations,
  };
  return { mediaType: p.mediaType, digest: digest(b), size: b.byteLength, annotations };
}

export function appManifest(parts: Part[], over: Record<string, unknown> = {}): Artifact {
  const manifest = {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType: 'application/vnd.platform.app.v1+json',
    config: CONFIG,
    layers: parts.map(layer),
    ...over,
  };
  return { manifest, blobs: [EMPTY, ...parts.map((p) => bytesOf(p.bytes))] };
}

export function composeManifest(archive: Uint8Array, annotations: Record<string, string>): Artifact {
  const part = { mediaType: 'application/vnd.org.platform.component.compose.tar+gzip', bytes: archive, annotations };
  const manifest = {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType: 'application/vnd.org.platform.component.compose+json',
    config: CONFIG,
    layers: [layer(part)],
  };
  return { manifest, blobs: [EMPTY, archive] };
}

export async function pushArtifact(registryUrl: string, name: string, tag: string, artifact: Artifact): Promise<void> {
  const transport = createTransport({ baseUrl: registryUrl });
  try {
    const client = new RegistryClient({ transport });
    for (const blob of artifact.blobs) {
      const pushed = await client.pushBlob(name, blob);
      if (!pushed.ok) throw new Error(`blob push failed: ${pushed.response.status}`);
    }
    const response = await client.pushManifest(name, tag, new TextEncoder().encode(JSON.stringify(artifact.manifest)), OCI_MANIFEST);
    if (response.status !== 201) throw new Error(`manifest push failed: ${response.status} ${response.text()}`);
  } finally {
    await transport.close();
  }
}
