// A readers/writers lock shared by the processes of one run (Playwright's workers are separate processes): files in one
// folder, each change made under a per-resource mutex file created with O_EXCL. Writers are exclusive, readers shared,
// and a waiting writer bars new readers so a stream of readers cannot starve it. Every entry's name carries its owner's
// pid: an entry (or mutex) whose process is gone is stale and broken, so a worker that dies never blocks the run.
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processAlive } from './process-alive.ts';

export type LockMode = 'read' | 'write';

export interface LockRequest {
  resource: string;
  mode: LockMode;
}

/** An entry in the lock folder: a reader, a writer, or a writer waiting (its intent bars new readers). */
export interface Holder {
  resource: string;
  kind: 'r' | 'w' | 'ww';
  pid: number;
  /** Who holds it (a check's title), for the message of a timeout. */
  owner: string;
}

export interface LockOptions {
  /** The folder of the lock files (created when missing). */
  dir: string;
  /** Who asks (a check's title), written into the entry. */
  owner: string;
  /** How long to wait for each resource before giving up with LockTimeout. */
  timeoutMs: number;
  pollMs?: number;
  /** Seams for the tests. */
  pid?: number;
  alive?: (pid: number) => boolean;
}

export class LockTimeout extends Error {
  constructor(
    readonly request: LockRequest,
    readonly holders: Holder[],
    readonly waitedMs: number,
  ) {
    const who = holders.map((h) => `${h.kind === 'r' ? 'reader' : h.kind === 'w' ? 'writer' : 'waiting writer'} pid ${h.pid} "${h.owner}"`);
    super(
      `shared-state lock "${request.resource}" (${request.mode}) not acquired in ${waitedMs} ms; held by ${who.join(', ') || 'nobody (contended)'}`,
    );
    this.name = 'LockTimeout';
  }
}

const RESOURCE = /^[a-z0-9][a-z0-9-]*$/;
/** An empty mutex (its creator died between create and write) older than this is stale. */
const EMPTY_MUTEX_STALE_MS = 5_000;
let sequence = 0;

/**
 * Acquires every request in one fixed order (by resource name; a resource asked twice is taken once, write over read),
 * so two checks never wait on each other in a cycle. Resolves to the release; on a timeout releases what it took.
 */
export async function acquireAll(requests: readonly LockRequest[], o: LockOptions): Promise<() => void> {
  const byResource = new Map<string, LockMode>();
  for (const r of requests) {
    if (!RESOURCE.test(r.resource)) throw new Error(`shared-state lock: bad resource name ${JSON.stringify(r.resource)}`);
    if (byResource.get(r.resource) !== 'write') byResource.set(r.resource, r.mode);
  }
  mkdirSync(o.dir, { recursive: true });
  const held: (() => void)[] = [];
  const releaseAll = () => {
    for (const release of held.splice(0).reverse()) release();
  };
  try {
    for (const resource of [...byResource.keys()].sort()) held.push(await acquire({ resource, mode: byResource.get(resource)! }, o));
  } catch (e) {
    releaseAll();
    throw e;
  }
  return releaseAll;
}

async function acquire(request: LockRequest, o: LockOptions): Promise<() => void> {
  const lock = new LockFolder(o.dir, request.resource, o.pid ?? process.pid, o.alive ?? processAlive);
  const started = Date.now();
  const deadline = started + o.timeoutMs;
  let intent: string | undefined;
  for (;;) {
    const granted = await lock.withMutex(deadline, request, (holders) => {
      const blocking = holders.filter((h) => (request.mode === 'read' ? h.kind !== 'r' : h.kind !== 'ww'));
      if (blocking.length > 0) {
        if (request.mode === 'write') intent ??= lock.create('ww', o.owner);
        return undefined;
      }
      const entry = lock.create(request.mode === 'read' ? 'r' : 'w', o.owner);
      if (intent) lock.remove(intent);
      return entry;
    });
    if (granted) return () => lock.remove(granted);
    if (Date.now() >= deadline) {
      const holders = lock.holders();
      if (intent) lock.remove(intent);
      throw new LockTimeout(request, holders, Date.now() - started);
    }
    await sleep(o.pollMs ?? 25);
  }
}

/** The files of one resource in the lock folder: `<resource>.mutex` and `<resource>.<kind>.<pid>.<n>` entries. */
class LockFolder {
  constructor(
    private readonly dir: string,
    private readonly resource: string,
    private readonly pid: number,
    private readonly alive: (pid: number) => boolean,
  ) {}

  private get mutex(): string {
    return join(this.dir, `${this.resource}.mutex`);
  }

  /** Runs `change` with the live holders (stale ones removed) while this process holds the resource's mutex. */
  async withMutex<T>(deadline: number, request: LockRequest, change: (holders: Holder[]) => T): Promise<T> {
    const started = Date.now();
    for (;;) {
      if (this.tryMutex()) break;
      this.breakStaleMutex();
      if (Date.now() >= deadline) throw new LockTimeout(request, this.holders(), Date.now() - started);
      await sleep(2);
    }
    try {
      return change(this.holders(true));
    } finally {
      this.remove(this.mutex);
    }
  }

  private tryMutex(): boolean {
    let fd: number;
    try {
      fd = openSync(this.mutex, 'wx');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
    writeSync(fd, String(this.pid));
    closeSync(fd);
    return true;
  }

  /** A mutex whose owner is gone: moved aside under a unique name; put back (link fails if taken) if it was live after all. */
  private breakStaleMutex(): void {
    if (!this.mutexStale()) return;
    const aside = `${this.mutex}.stale.${this.pid}.${++sequence}`;
    try {
      renameSync(this.mutex, aside);
    } catch {
      return;
    }
    const pid = Number(readOr(aside, ''));
    if (pid > 0 && this.alive(pid)) {
      try {
        linkSync(aside, this.mutex);
      } catch {
        // Someone took the mutex meanwhile; the live owner's release then removes theirs, which is harmless.
      }
    }
    this.remove(aside);
  }

  private mutexStale(): boolean {
    const text = readOr(this.mutex, undefined);
    if (text === undefined) return false;
    if (text === '') {
      try {
        return Date.now() - statSync(this.mutex).mtimeMs > EMPTY_MUTEX_STALE_MS;
      } catch {
        return false;
      }
    }
    return !this.alive(Number(text));
  }

  /** The entries of this resource; with `prune`, those of dead processes are removed and left out. */
  holders(prune = false): Holder[] {
    const prefix = `${this.resource}.`;
    const out: Holder[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.startsWith(prefix)) continue;
      const [kind, pid] = name.slice(prefix.length).split('.');
      if (kind !== 'r' && kind !== 'w' && kind !== 'ww') continue;
      const holder: Holder = { resource: this.resource, kind, pid: Number(pid), owner: readOr(join(this.dir, name), '?') };
      if (prune && !this.alive(holder.pid)) this.remove(join(this.dir, name));
      else out.push(holder);
    }
    return out;
  }

  create(kind: Holder['kind'], owner: string): string {
    const file = join(this.dir, `${this.resource}.${kind}.${this.pid}.${++sequence}`);
    const fd = openSync(file, 'wx');
    writeSync(fd, owner);
    closeSync(fd);
    return file;
  }

  remove(file: string): void {
    try {
      unlinkSync(file);
    } catch {
      // Already gone: broken as stale by another process, or released twice.
    }
  }
}

function readOr<T>(file: string, fallback: T): string | T {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}
