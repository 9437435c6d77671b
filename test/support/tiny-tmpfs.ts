// A real small filesystem for tests of a full or read-only output folder: a tmpfs mounted for the test, where the
// machine allows it (root with CAP_SYS_ADMIN, as here and in CI); elsewhere the test skips, naming why.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TinyTmpfs {
  dir: string;
  close(): void;
}

/** A tmpfs of `size` (mount's syntax: 300k, 2m), read-only with `readOnly`; a string saying why not, when it cannot be. */
export function mountTinyTmpfs(size: string, opts: { readOnly?: boolean } = {}): TinyTmpfs | string {
  if (process.platform !== 'linux') return `a tmpfs mount needs Linux, not ${process.platform}`;
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-tmpfs-'));
  const options = `size=${size}${opts.readOnly ? ',ro' : ''}`;
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { encoding: 'utf8' });
  if (mount.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return `mount -t tmpfs is not allowed here (${(mount.stderr || mount.error?.message || `exit ${mount.status}`).trim()})`;
  }
  return {
    dir,
    close() {
      // Lazy: a child that still holds a file open must not leave the mount behind.
      spawnSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
