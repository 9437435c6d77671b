// Device credentials cached on disk (`wfmck fleet --cert-cache DIR`): the same device CA and the same device give the
// same file, so a fleet started again skips minting (3-6 ms of CPU per device with @peculiar/x509). Each CA has a
// folder of its own (0700), each credential a file written 0600 to a temp name and renamed; a file that is unreadable,
// of another device or near its expiry is minted again. A cache others can read (copied under umask 022, restored
// from a backup) is tightened before a fleet reuses it.
import { createHash, createPrivateKey, randomBytes, X509Certificate, type JsonWebKey } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface CachedCredential {
  certPem: string;
  keyPem: string;
  /** Leaf then intermediates (an SVID's chain), when the peer must be shown more than the leaf. */
  chainPem?: string;
  /** The key as a JWK: OpenSSL imports it ~4x faster than the PEM (P-256: ~80 vs ~360 µs), once per device start. */
  keyJwk?: JsonWebKey;
}

export type CredentialSource = (name: string, mint: () => Promise<CachedCredential>) => Promise<CachedCredential>;

/** A credential this close to its end is minted again rather than handed to a fleet that may run for hours. */
const FRESH_FOR_MS = 24 * 3600_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** No cache: every credential minted as it is asked for. */
export const mintAlways: CredentialSource = (_name, mint) => mint();

export function credentialCache(dir: string, caPem: string): CredentialSource {
  const folder = join(dir, sha256(caPem).slice(0, 16));
  let made: Promise<unknown> | undefined;
  return async (name, mint) => {
    const file = join(folder, `${sha256(name).slice(0, 32)}.json`);
    const cached = await readFile(file, 'utf8').then(
      (text) => usable(text, name),
      () => undefined,
    );
    if (cached) return cached;
    const fresh = await mint();
    made ??= mkdir(folder, { recursive: true, mode: 0o700 });
    await made;
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    // Its end is read once, here: a start that reuses the file parses the certificate only where it is used.
    const notAfter = new X509Certificate(fresh.certPem).validTo;
    const keyJwk = fresh.keyJwk ?? createPrivateKey(fresh.keyPem).export({ format: 'jwk' });
    await writeFile(temp, JSON.stringify({ name, notAfter, ...fresh, keyJwk }), { mode: 0o600 });
    await rename(temp, file);
    return { ...fresh, keyJwk };
  };
}

/** What tightenCache changed: key files (and CA folders) others could read or enter, and the modes they had (loosest first). */
export interface Tightened {
  files: number;
  folders: number;
  modes: number[];
}

/** The cache's layout: a folder per CA (16 hex), a file per credential (32 hex); nothing else in DIR is touched. */
const CA_FOLDER = /^[0-9a-f]{16}$/;
const CREDENTIAL_FILE = /^[0-9a-f]{32}\.json$/;

/**
 * Before a fleet reuses a cache: files left readable by others (a copy, a restore, a umask) become 0600 and their
 * folders 0700, as if the cache had written them (a write replaces the file; a reuse reads it as it is).
 */
export async function tightenCache(dir: string): Promise<Tightened> {
  const done: Tightened = { files: 0, folders: 0, modes: [] };
  const tighten = async (path: string, mode: number, kind: 'files' | 'folders') => {
    const was = (await stat(path)).mode & 0o777;
    if ((was & 0o077) === 0) return;
    await chmod(path, mode);
    done[kind]++;
    if (!done.modes.includes(was)) done.modes.push(was);
  };
  const folders = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const f of folders.filter((e) => e.isDirectory() && CA_FOLDER.test(e.name))) {
    const folder = join(dir, f.name);
    await tighten(folder, 0o700, 'folders');
    const files = (await readdir(folder)).filter((n) => CREDENTIAL_FILE.test(n));
    // A few hundred at a time: a cache of 100,000 devices is swept in well under a second without 100,000 open stats.
    for (let i = 0; i < files.length; i += 256)
      await Promise.all(files.slice(i, i + 256).map((n) => tighten(join(folder, n), 0o600, 'files')));
  }
  done.modes.sort((a, b) => b - a);
  return done;
}

function usable(text: string, name: string): CachedCredential | undefined {
  try {
    const c = JSON.parse(text) as CachedCredential & { name?: string; notAfter?: string };
    if (c.name !== name || typeof c.certPem !== 'string' || typeof c.keyPem !== 'string' || typeof c.notAfter !== 'string')
      return undefined;
    if (!(Date.parse(c.notAfter) - Date.now() >= FRESH_FOR_MS)) return undefined;
    return {
      certPem: c.certPem,
      keyPem: c.keyPem,
      ...(typeof c.chainPem === 'string' && { chainPem: c.chainPem }),
      ...(typeof c.keyJwk === 'object' && c.keyJwk !== null && { keyJwk: c.keyJwk }),
    };
  } catch {
    return undefined;
  }
}
