// `wfmck fleet --cert-cache DIR` with a cache others can read (copied under umask 022): the fleet tightens every key
// file to 0600 before it reuses them and says so in one line, not one per file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WFMCK_BIN } from '../support/wfmck-cli.ts';

async function fleet(cache: string, out: string) {
  const args = ['fleet', '--devices', '5', '--duration', '1', '--seed', '7', '--cert-cache', cache, '--out', out];
  const child = spawn(process.execPath, [WFMCK_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

/** Every file and folder of the cache, by path, with its permission bits and inode (a file minted again is a new one). */
async function modes(dir: string): Promise<Map<string, { mode: number; ino: number }>> {
  const found = new Map<string, { mode: number; ino: number }>();
  for (const entry of await readdir(dir, { recursive: true })) {
    const s = await stat(join(dir, entry));
    found.set(entry, { mode: s.mode & 0o777, ino: s.ino });
  }
  return found;
}

test(
  'fleet --cert-cache reuses key files left 0644 only after tightening them to 0600, with one notice',
  { timeout: 120_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-cache-'));
    const cache = join(dir, 'cache');
    const first = await fleet(cache, join(dir, 'out1'));
    assert.equal(first.code, 0, first.stderr);
    assert.doesNotMatch(first.stderr, /tightened/, 'a cache the fleet wrote needs nothing');
    const written = await modes(cache);
    const files = [...written].filter(([, s]) => s.mode === 0o600).map(([path]) => path);
    // 5 devices and the embedded default's device CA.
    assert.equal(files.length, 6, JSON.stringify([...written]));
    for (const file of files) await chmod(join(cache, file), 0o644);

    const again = await fleet(cache, join(dir, 'out2'));
    assert.equal(again.code, 0, again.stderr);
    const notices = again.stderr.split('\n').filter((l) => l.includes('--cert-cache'));
    assert.deepEqual(notices, [
      `wfmck fleet: --cert-cache ${cache}: tightened 6 key files (now 600), readable by others before (mode 644)`,
    ]);
    assert.deepEqual(await modes(cache), written, 'reused, not minted again: the same files, private again');
  },
);
