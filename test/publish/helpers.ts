// Helpers for the publish tests: throwaway folders, noisy copies of a sample, an HTTPS reference registry, a client.
import { after, before } from 'node:test';
import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRootCa, issueCertificate } from '../../protocol/pki.ts';
import { startRegistry, type RunningRegistry } from '../../reference/registry/server.ts';
import { RegistryClient } from '../../simulators/registry-client.ts';
import { Transcript } from '../../simulators/transport/transcript.ts';
import { createTransport, type UndiciTransport } from '../../simulators/transport/undici-transport.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const HELLO_APP = join(ROOT, 'fixtures/packages/hello-app');
export const HELLO_COMPOSE = join(ROOT, 'fixtures/packages/hello-compose');

const made: string[] = [];
after(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));

/** A new empty folder, removed after the test file. */
export async function tempDir(prefix = 'wfmck-publish-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export type FolderSpec = Record<string, string | Uint8Array | { symlink: string }>;

/** A folder holding `files` (paths relative to it; parents are created). */
export async function writeFolder(files: FolderSpec): Promise<string> {
  const dir = await tempDir();
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    await mkdir(dirname(full), { recursive: true });
    if (typeof content === 'object' && 'symlink' in content) await symlink(content.symlink, full);
    else await writeFile(full, content);
  }
  return dir;
}

/** A copy of `src` with other mtimes and permissions on every entry: what a second checkout on another machine looks like. */
export async function noisyCopy(src: string, seed = 1): Promise<string> {
  const dir = join(await tempDir(), 'copy-with-another-name');
  await cp(src, dir, { recursive: true, verbatimSymlinks: true });
  let n = seed;
  const visit = async (d: string): Promise<void> => {
    for (const name of await readdir(d)) {
      const full = join(d, name);
      const s = await stat(full);
      n = (n * 7919 + 17) % 100_003;
      if (s.isDirectory()) {
        await visit(full);
        await chmod(full, n % 2 ? 0o700 : 0o2775);
      } else {
        await chmod(full, n % 2 ? 0o600 : 0o4755);
      }
      await utimes(full, 1_000_000 + n, 2_000_000_000 - n);
    }
  };
  await visit(dir);
  return dir;
}

export type HttpsRegistry = RunningRegistry & { caPem: string };

/**
 * The reference registry over HTTPS with a fresh kit CA and a client trusting it, for the whole test file.
 * `ready()` starts both on first use, so another top-level hook can await them whatever order the hooks run in.
 */
export function useHttpsReferenceRegistry(): {
  readonly registry: HttpsRegistry;
  readonly client: RegistryClient;
  readonly transcript: Transcript;
  ready(): Promise<HttpsRegistry>;
} {
  let started: Promise<{ registry: HttpsRegistry; connected: Connected }> | undefined;
  let up: { registry: HttpsRegistry; connected: Connected } | undefined;
  const start = async () => {
    const ca = await createRootCa('wfmck publish test CA');
    const leaf = await issueCertificate(ca, { commonName: '127.0.0.1', ipAddresses: ['127.0.0.1'], usage: ['server'] });
    const registry = { ...(await startRegistry({ tls: { cert: leaf.certPem, key: leaf.keyPem } })), caPem: ca.certPem };
    return (up = { registry, connected: connect(registry.url, ca.certPem) });
  };
  const ready = async () => (await (started ??= start())).registry;
  before(() => ready());
  after(async () => {
    const running = await started?.catch(() => undefined);
    await running?.connected.transport.close();
    await running?.registry.close();
  });
  const need = () => {
    if (!up) throw new Error('registry not started');
    return up;
  };
  return {
    ready,
    get registry() {
      return need().registry;
    },
    get client() {
      return need().connected.client;
    },
    get transcript() {
      return need().connected.transcript;
    },
  };
}

export interface Connected {
  client: RegistryClient;
  transport: UndiciTransport;
  transcript: Transcript;
}

/** A RegistryClient on its own transport recording exchanges in `transcript`; the caller closes the transport. */
export function connect(url: string, caPem?: string): Connected {
  const transcript = new Transcript();
  const transport = createTransport({
    baseUrl: url,
    transcript,
    timeoutMs: 30_000,
    maxResponseBytes: 16 * 1024 * 1024,
    ...(caPem ? { ca: caPem } : {}),
  });
  return { client: new RegistryClient({ transport }), transport, transcript };
}

/** `node bin/wfmck.mjs ...args` in a child process, as a user runs it. */
export async function wfmck(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/wfmck.mjs'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  return { code, stdout, stderr };
}
