// Private keys and client state the kit writes: created 0600 in a temp file beside the target and renamed over it,
// so the bytes are never readable by others, even for a moment, and an existing file's looser mode does not survive
// (writeFile's `mode` applies only when it creates the file).
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What writing replaced: an existing file others could read (its mode), which the caller may tell the user about. */
export interface SecretWrite {
  replacedMode?: number;
}

export function writeSecretFileSync(path: string, data: string | Uint8Array): SecretWrite {
  let previous: number | undefined;
  try {
    previous = statSync(path).mode & 0o777;
  } catch {
    previous = undefined;
  }
  const temp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, data, { mode: 0o600, flag: 'wx' });
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
  return previous !== undefined && (previous & 0o077) !== 0 ? { replacedMode: previous } : {};
}

export async function writeSecretFile(path: string, data: string | Uint8Array): Promise<SecretWrite> {
  return writeSecretFileSync(path, data);
}

/** The one line a command prints when it replaced a file others could read. */
export function looserModeNotice(path: string, w: SecretWrite): string | undefined {
  return w.replacedMode === undefined
    ? undefined
    : `wfmck: ${path} was readable by others (mode ${w.replacedMode.toString(8).padStart(3, '0')}); it is now 600`;
}
