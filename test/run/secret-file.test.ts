// Keys the kit writes are never readable by others: created 0600 and renamed over the target, so a world-readable
// file that was there before does not keep its mode (writeFile's `mode` only applies on create).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { looserModeNotice, writeSecretFileSync } from '../../run/processes/secret-file.ts';
import { WFMCK_BIN } from '../support/wfmck-cli.ts';

const modeOf = (path: string) => statSync(path).mode & 0o777;

test('a new secret file is 0600; an existing 0644 one is replaced 0600 with a notice; no temp file is left', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-secret-'));
  const fresh = join(dir, 'fresh.key');
  assert.deepEqual(writeSecretFileSync(fresh, 'k1'), {});
  assert.equal(modeOf(fresh), 0o600);
  const loose = join(dir, 'loose.key');
  writeFileSync(loose, 'old');
  chmodSync(loose, 0o644);
  const w = writeSecretFileSync(loose, 'k2');
  assert.deepEqual([modeOf(loose), readFileSync(loose, 'utf8'), w.replacedMode], [0o600, 'k2', 0o644]);
  assert.match(looserModeNotice(loose, w)!, /loose\.key was readable by others \(mode 644\); it is now 600$/);
  assert.deepEqual(readdirSync(dir).sort(), ['fresh.key', 'loose.key']);
});

test('touch k; chmod 644 k, then wfmck serve --state-dir: the device CA key is 0600, and serve says so', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-serve-state-'));
  const key = join(dir, 'device-ca.key');
  writeFileSync(key, '');
  chmodSync(key, 0o644);
  const child = spawn(process.execPath, [WFMCK_BIN, 'serve', '--state-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  try {
    await once(createInterface({ input: child.stdout }), 'line');
    assert.equal(modeOf(key), 0o600);
    assert.match(readFileSync(key, 'utf8'), /BEGIN PRIVATE KEY/);
    assert.match(stderr, /device-ca\.key was readable by others \(mode 644\); it is now 600/);
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});
