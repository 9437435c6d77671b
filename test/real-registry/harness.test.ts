// scripted/real-registry.ts: Debian's docker-registry on loopback with its own storage, stopped and cleaned by close().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { startRealRegistry } from '../../scripted/real-registry.ts';

test('the real registry answers /v2/ on 127.0.0.1, and close() stops it and removes its storage', async () => {
  const registry = await startRealRegistry();
  try {
    assert.match(registry.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${registry.url}/v2/`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('docker-distribution-api-version'), 'registry/2.0');
  } finally {
    await registry.close();
  }
  await assert.rejects(fetch(`${registry.url}/v2/`), TypeError);
  await assert.rejects(access(registry.dir), { code: 'ENOENT' });
});

test('two real registries run side by side on different ports', async () => {
  const [a, b] = await Promise.all([startRealRegistry(), startRealRegistry()]);
  try {
    assert.notEqual(a.url, b.url);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('a missing binary fails with the install command, never a skip', async () => {
  await assert.rejects(
    startRealRegistry({ bin: '/nonexistent/docker-registry' }),
    (e: Error & { code?: string }) => e.code === 'WFMCK_E_REAL_REGISTRY_MISSING' && /apt-get install docker-registry/.test(e.message),
  );
});
