// Pushing a built artifact (§4.7 upload workflow): every blob once, skipping those the registry has, then the manifest.
import type { RegistryClient } from '../registry-client.ts';
import type { HttpResponse } from '../transport/types.ts';
import { PublishError, type BuiltArtifact } from './artifact.ts';
import { OCI_MANIFEST } from '../../spec/media-types.ts';

export interface PushedBlob {
  digest: string;
  size: number;
  mediaType: string;
  /** HEAD found it already there, so nothing was uploaded. */
  skipped: boolean;
}

export interface PushResult {
  repository: string;
  tag: string;
  manifestDigest: string;
  blobs: PushedBlob[];
  skipped: number;
}

export type Pusher = Pick<RegistryClient, 'pushBlob' | 'pushManifest'>;

export async function pushArtifact(
  client: Pusher,
  repository: string,
  artifact: BuiltArtifact,
  opts: { chunkSize?: number } = {},
): Promise<PushResult> {
  const blobs: PushedBlob[] = [];
  const seen = new Set<string>();
  for (const blob of artifact.blobs) {
    if (seen.has(blob.digest)) continue;
    seen.add(blob.digest);
    const pushed = await client.pushBlob(repository, blob.bytes, opts.chunkSize ? { chunkSize: opts.chunkSize } : {});
    if (!pushed.ok) throw failed(`blob ${blob.digest} (${blob.mediaType})`, pushed.response);
    blobs.push({ digest: blob.digest, size: blob.bytes.byteLength, mediaType: blob.mediaType, skipped: pushed.skipped });
  }
  const response = await client.pushManifest(repository, artifact.tag, artifact.manifest, OCI_MANIFEST);
  if (response.status !== 201) throw failed(`manifest ${repository}:${artifact.tag}`, response);
  const echoed = response.headers['docker-content-digest'];
  if (echoed !== undefined && echoed !== artifact.manifestDigest) {
    throw new PublishError(
      'WFMCK_E_PUBLISH_PUSH',
      `the registry stored manifest ${repository}:${artifact.tag} as ${echoed}, not ${artifact.manifestDigest}: it changed the bytes`,
    );
  }
  return { repository, tag: artifact.tag, manifestDigest: artifact.manifestDigest, blobs, skipped: blobs.filter((b) => b.skipped).length };
}

function failed(what: string, response: HttpResponse): PublishError {
  const body = response.text().slice(0, 500).trim();
  return new PublishError(
    'WFMCK_E_PUBLISH_PUSH',
    `pushing ${what} failed: HTTP ${response.status} ${response.exchange.method} ${response.exchange.url}${body ? `\n${body}` : ''}`,
  );
}
