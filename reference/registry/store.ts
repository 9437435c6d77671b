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
  /** When its last chunk came: an idle session expires, a slow but steady one does not. */
  touchedAt: number;
}

/** The bytes the registry holds at most, blobs, upload sessions and bodies in flight together. */
export const DEFAULT_QUOTA_BYTES = 128 * 1024 * 1024;
/** Upload sessions open at once; past it the oldest idle one makes room, or the push gets 429. */
export const DEFAULT_MAX_SESSIONS = 1000;

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
  /** Bytes of blobs, open sessions and bodies being read (manifests are capped one by one, and small). */
  private used = 0;

  constructor(
    readonly quotaBytes = DEFAULT_QUOTA_BYTES,
    readonly maxSessions = DEFAULT_MAX_SESSIONS,
  ) {}

  /** Forget everything (per-test reset of a worker-scoped registry). */
  reset(): void {
    this.blobBytes.clear();
    this.repos.clear();
    this.uploads.clear();
    this.used = 0;
  }

  // ---- the byte quota

  get usedBytes(): number {
    return this.used;
  }

  /** Takes `bytes` from the quota; false (nothing taken) when they do not fit. */
  charge(bytes: number): boolean {
    if (this.used + bytes > this.quotaBytes) return false;
    this.used += bytes;
    return true;
  }

  refund(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  /** Bytes held by open upload sessions (what a client that abandons its pushes costs). */
  sessionBytes(): number {
    let n = 0;
    for (const s of this.uploads.values()) n += s.size;
    return n;
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

  /** Store bytes under a digest the caller has verified (and charged to the quota), and link them into `name`. */
  putBlob(name: string, digest: string, bytes: Buffer): void {
    if (!this.blobBytes.has(digest)) this.blobBytes.set(digest, bytes);
    else this.refund(bytes.length);
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
    if (![...this.repos.values()].some((r) => r.blobs.has(digest))) {
      this.refund(this.blobBytes.get(digest)?.length ?? 0);
      this.blobBytes.delete(digest);
    }
    return true;
  }

  // ---- upload sessions

  startUpload(name: string, now = Date.now()): UploadSession {
    const session: UploadSession = { id: randomUUID(), name, chunks: [], size: 0, startedAt: now, touchedAt: now };
    this.uploads.set(session.id, session);
    return session;
  }

  get sessionCount(): number {
    return this.uploads.size;
  }

  /** The session, only when it belongs to `name`. */
  upload(name: string, id: string): UploadSession | undefined {
    const session = this.uploads.get(id);
    return session?.name === name ? session : undefined;
  }

  /** A chunk read (and charged) into an open session. */
  appendUpload(session: UploadSession, chunk: Buffer, now = Date.now()): void {
    session.chunks.push(chunk);
    session.size += chunk.length;
    session.touchedAt = now;
  }

  /** A cancelled session: its bytes go back to the quota. */
  endUpload(id: string): boolean {
    const session = this.uploads.get(id);
    if (session) this.refund(session.size);
    return this.uploads.delete(id);
  }

  /** A session whose bytes became a blob (putBlob took over their charge). */
  closeUpload(id: string): void {
    this.uploads.delete(id);
  }

  /** Drop sessions idle since before `cutoff` (the spec's "server SHOULD eventually timeout unfinished uploads"). */
  expireUploads(cutoff: number): void {
    for (const [id, session] of this.uploads) if (session.touchedAt < cutoff) this.endUpload(id);
  }

  /** Drops the session idle longest, to make room; false when there is none. */
  expireOldestUpload(): boolean {
    let oldest: UploadSession | undefined;
    for (const s of this.uploads.values()) if (!oldest || s.touchedAt < oldest.touchedAt) oldest = s;
    return oldest !== undefined && this.endUpload(oldest.id);
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
