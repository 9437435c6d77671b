// In-memory registry state: content-addressed blobs linked into repositories, manifests, tags and upload
// sessions. Pure data operations; every HTTP and validation decision lives in the route files.
import { randomUUID } from 'node:crypto';

/** What a stored manifest is, beyond its bytes, for serving it and for the referrers API. */
export interface ManifestRecord {
  digest: string;
  bytes: Buffer;
  mediaType: string;
  /** Digest of the `subject` descriptor, when the manifest has one. */
  subject?: string;
  /** The referrers descriptor's artifactType: the manifest's own, else an image manifest's config mediaType. */
  artifactType?: string;
  annotations?: Record<string, string>;
}

export interface UploadSession {
  id: string;
  name: string;
  chunks: Buffer[];
  size: number;
  startedAt: number;
}

interface Repository {
  /** Digests of blobs linked into this repository; the bytes live in the shared blob map. */
  blobs: Set<string>;
  manifests: Map<string, ManifestRecord>;
  tags: Map<string, string>;
}

export class RegistryStore {
  private readonly blobBytes = new Map<string, Buffer>();
  private readonly repos = new Map<string, Repository>();
  private readonly uploads = new Map<string, UploadSession>();

  /** Forget everything (per-test reset of a worker-scoped registry). */
  reset(): void {
    this.blobBytes.clear();
    this.repos.clear();
    this.uploads.clear();
  }

  hasRepository(name: string): boolean {
    return this.repos.has(name);
  }

  repositoryNames(): string[] {
    return [...this.repos.keys()].sort();
  }

  // ---- blobs

  /** The blob's bytes, only when the blob is linked into `name`. */
  blob(name: string, digest: string): Buffer | undefined {
    return this.repos.get(name)?.blobs.has(digest) ? this.blobBytes.get(digest) : undefined;
  }

  hasBlob(name: string, digest: string): boolean {
    return this.blob(name, digest) !== undefined;
  }

  /** Store bytes under a digest the caller has verified, and link them into `name`. */
  putBlob(name: string, digest: string, bytes: Buffer): void {
    if (!this.blobBytes.has(digest)) this.blobBytes.set(digest, bytes);
    this.repo(name).blobs.add(digest);
  }

  /** Link a blob already linked in `from` into `name`; false when `from` does not hold it. */
  mountBlob(name: string, digest: string, from: string): boolean {
    if (!this.hasBlob(from, digest)) return false;
    this.repo(name).blobs.add(digest);
    return true;
  }

  /** Unlink from `name`; the bytes go once no repository links them. */
  deleteBlob(name: string, digest: string): boolean {
    const repo = this.repos.get(name);
    if (!repo?.blobs.delete(digest)) return false;
    if (![...this.repos.values()].some((r) => r.blobs.has(digest))) this.blobBytes.delete(digest);
    return true;
  }

  // ---- upload sessions

  startUpload(name: string, now = Date.now()): UploadSession {
    const session: UploadSession = { id: randomUUID(), name, chunks: [], size: 0, startedAt: now };
    this.uploads.set(session.id, session);
    return session;
  }

  /** The session, only when it belongs to `name`. */
  upload(name: string, id: string): UploadSession | undefined {
    const session = this.uploads.get(id);
    return session?.name === name ? session : undefined;
  }

  appendUpload(session: UploadSession, chunk: Buffer): void {
    session.chunks.push(chunk);
    session.size += chunk.length;
  }

  endUpload(id: string): boolean {
    return this.uploads.delete(id);
  }

  /** Drop sessions started before `cutoff` (the spec's "server SHOULD eventually timeout unfinished uploads"). */
  expireUploads(cutoff: number): void {
    for (const [id, session] of this.uploads) if (session.startedAt < cutoff) this.uploads.delete(id);
  }

  // ---- manifests and tags

  manifestByDigest(name: string, digest: string): ManifestRecord | undefined {
    return this.repos.get(name)?.manifests.get(digest);
  }

  manifestByTag(name: string, tag: string): ManifestRecord | undefined {
    const repo = this.repos.get(name);
    const digest = repo?.tags.get(tag);
    return digest === undefined ? undefined : repo?.manifests.get(digest);
  }

  putManifest(name: string, record: ManifestRecord, tag?: string): void {
    const repo = this.repo(name);
    repo.manifests.set(record.digest, record);
    if (tag !== undefined) repo.tags.set(tag, record.digest);
  }

  /** Remove the manifest and every tag that points at it. */
  deleteManifest(name: string, digest: string): boolean {
    const repo = this.repos.get(name);
    if (!repo?.manifests.delete(digest)) return false;
    for (const [tag, target] of repo.tags) if (target === digest) repo.tags.delete(tag);
    return true;
  }

  deleteTag(name: string, tag: string): boolean {
    return this.repos.get(name)?.tags.delete(tag) ?? false;
  }

  /** Tags in ASCIIbetical order (Go's sort.Strings, which the spec allows as "lexical"); undefined for no repository. */
  tags(name: string): string[] | undefined {
    const repo = this.repos.get(name);
    return repo ? [...repo.tags.keys()].sort() : undefined;
  }

  /** Manifests in `name` whose subject is `digest`, ordered by digest. */
  referrers(name: string, digest: string): ManifestRecord[] {
    const repo = this.repos.get(name);
    if (!repo) return [];
    return [...repo.manifests.values()].filter((m) => m.subject === digest).sort((a, b) => (a.digest < b.digest ? -1 : 1));
  }

  private repo(name: string): Repository {
    let repo = this.repos.get(name);
    if (!repo) {
      repo = { blobs: new Set(), manifests: new Map(), tags: new Map() };
      this.repos.set(name, repo);
    }
    return repo;
  }
}
