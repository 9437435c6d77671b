// `wfmck serve` as a user runs it: a child process, one JSON line, live services, clean exit on SIGTERM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';

const bin = fileURLToPath(new URL('../../bin/wfmck.mjs', import.meta.url));

test('serve prints its URLs, answers on each, and exits 0 on SIGTERM', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, [bin, 'serve'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  try {
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const info = JSON.parse(line) as Record<string, string>;
    assert.equal(Number(info.pid), child.pid, 'serve reports its own pid');
    for (const key of ['wfm', 'identity', 'discovery', 'trustBundleUri', 'registry', 'admin']) {
      assert.match(info[key]!, /^https?:\/\/127\.0\.0\.1:\d+/, `${key} is a loopback URL`);
    }
    const ca = await readFile(info.caFile!, 'utf8');
    const dispatcher = new Agent({ connect: { ca } });
    const cert = await request(`${info.wfm}/api/v1/onboarding/certificate`, { dispatcher });
    assert.equal(cert.statusCode, 200);
    const served = Buffer.from(((await cert.body.json()) as { certificate: string }).certificate, 'base64').toString();
    assert.equal(served.trim(), ca.trim(), 'the Certificate API serves the CA that signed the servers');
    const disc = await request(info.discovery!, { dispatcher });
    assert.equal(disc.statusCode, 200);
    assert.equal(((await disc.body.json()) as { trustBundleUri: string }).trustBundleUri, info.trustBundleUri);
    const v2 = await request(`${info.registry}/v2/`, { dispatcher });
    assert.equal(v2.statusCode, 200);
    await v2.body.dump();
    const hooks = await request(`${info.admin}/`);
    assert.deepEqual(((await hooks.body.json()) as { hooks: string[] }).hooks.sort(), [
      'assignDeployment',
      'removeDeployment',
      'retireClient',
      'rotateTrustAnchor',
      'trustClientCertificate',
      'withdrawIdentityDocument',
    ]);
    const noToken = await request(`${info.admin}/hooks/retireClient`, { method: 'POST', body: '{}' });
    assert.equal(noToken.statusCode, 401);
    await noToken.body.dump();
    await dispatcher.close();
  } finally {
    child.kill('SIGTERM');
  }
  const [code] = await once(child, 'exit');
  assert.equal(code, 0, stderr);
});

// Any IP address is taken (a pod's, issue 33: test/cli/resolve-hostname.test.ts); the tests never listen beyond loopback.
test('serve refuses a --host that is no IP address with exit 2 and a one-line reason', async () => {
  const child = spawn(process.execPath, [bin, 'serve', '--host', 'wfm.internal'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = await once(child, 'exit');
  assert.equal(code, 2);
  assert.match(stderr, /^wfmck serve: --host: "wfm\.internal" is not an IP address\n/);
});
