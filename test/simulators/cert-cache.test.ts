// The fleet's credential cache: minted once per device and CA, reused after, private on disk, and minted again when
// the file is not what it should be.
import { test } from 'node:test';
import { createHash, createPrivateKey } from 'node:crypto';
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRootCa, issueCertificate } from '../../protocol/pki.ts';
import { credentialCache, tightenCache } from '../../simulators/fleet/cert-cache.ts';

test('a credential is minted once per CA and name, reused after, and written 0600 in a 0700 folder', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wfmck-cert-cache-'));
  const ca = await createRootCa('cache test CA');
  let mints = 0;
  const mint = async () => {
    mints++;
    const leaf = await issueCertificate(ca, { commonName: 'd1', usage: ['client'] });
    return { certPem: leaf.certPem, keyPem: leaf.keyPem };
  };
  const first = await credentialCache(dir, ca.certPem)('device:d1', mint);
  const again = await credentialCache(dir, ca.certPem)('device:d1', mint);
  assert.equal(mints, 1);
  assert.deepEqual(again, first);
  // The key also as a JWK (a start imports it ~4x faster than the PEM): the same key.
  assert.deepEqual(
    createPrivateKey({ key: again.keyJwk!, format: 'jwk' }).export({ format: 'jwk' }),
    createPrivateKey(first.keyPem).export({ format: 'jwk' }),
  );
  await credentialCache(dir, (await createRootCa('another CA')).certPem)('device:d1', mint);
  assert.equal(mints, 2, 'another CA, another folder');
  const folder = createHash('sha256').update(ca.certPem).digest('hex').slice(0, 16);
  assert.equal((await readdir(dir)).length, 2);
  assert.equal((await stat(join(dir, folder))).mode & 0o777, 0o700);
  const [file] = await readdir(join(dir, folder));
  assert.equal((await stat(join(dir, folder, file!))).mode & 0o777, 0o600);
  // A file that is not this device's (or is broken) is minted again, never handed out.
  const path = join(dir, folder, file!);
  await writeFile(path, (await readFile(path, 'utf8')).replace('device:d1', 'device:d2'));
  await credentialCache(dir, ca.certPem)('device:d1', mint);
  assert.equal(mints, 3);
  await writeFile(path, '{ not json');
  await credentialCache(dir, ca.certPem)('device:d1', mint);
  assert.equal(mints, 4);
});

test('tightenCache: key files and CA folders others could read become 0600 and 0700; nothing else in DIR is touched', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wfmck-cert-cache-'));
  const ca = await createRootCa('cache test CA');
  const mint = async () => {
    const leaf = await issueCertificate(ca, { commonName: 'd', usage: ['client'] });
    return { certPem: leaf.certPem, keyPem: leaf.keyPem };
  };
  const cache = credentialCache(dir, ca.certPem);
  for (const name of ['device:a', 'device:b', 'device:c']) await cache(name, mint);
  assert.deepEqual(await tightenCache(dir), { files: 0, folders: 0, modes: [] }, 'a cache as written needs nothing');
  const folder = join(dir, (await readdir(dir))[0]!);
  const files = await readdir(folder);
  // As `cp -r` under umask 022 (or a restore from a backup) leaves them.
  await chmod(folder, 0o755);
  await chmod(join(folder, files[0]!), 0o644);
  await chmod(join(folder, files[1]!), 0o640);
  await writeFile(join(dir, 'notes.txt'), 'mine', { mode: 0o644 });
  assert.deepEqual(await tightenCache(dir), { files: 2, folders: 1, modes: [0o755, 0o644, 0o640] });
  assert.equal((await stat(folder)).mode & 0o777, 0o700);
  for (const f of files) assert.equal((await stat(join(folder, f))).mode & 0o777, 0o600, f);
  assert.equal((await stat(join(dir, 'notes.txt'))).mode & 0o777, 0o644, 'not a file of the cache');
  assert.deepEqual(await tightenCache(join(dir, 'missing')), { files: 0, folders: 0, modes: [] });
});
