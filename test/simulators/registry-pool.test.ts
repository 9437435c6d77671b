// simulators/registry-pool.ts: a deployment's component names its registry; a device pulls only from a named target
// or loopback (spec/network-policy.ts), refused in the policy's words before any transport is opened.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { registryPool } from '../../simulators/registry-pool.ts';
import { forgetNamedTargets, nameTargets } from '../../spec/network-policy.ts';
import type { Transport } from '../../simulators/transport/types.ts';

afterEach(forgetNamedTargets);

function pool() {
  const opened: string[] = [];
  const transport = { request: async () => assert.fail('no request is made'), close: async () => undefined } as unknown as Transport;
  return { opened, pool: registryPool((origin) => (opened.push(origin), transport)) };
}

test('a component on a registry neither named nor on loopback is refused before a transport opens', () => {
  const { opened, pool: p } = pool();
  assert.throws(
    () => p.client('oci://registry.example.test:5000/acme/app'),
    /^Error: simulated devices do not pull from oci:\/\/registry\.example\.test:5000\/acme\/app: registry\.example\.test is neither a named target nor on loopback; the kit sends traffic only to the hosts you name and to loopback$/,
  );
  assert.deepEqual(opened, []);
  p.client('oci://127.0.0.1:5000');
  assert.deepEqual(opened, ['https://127.0.0.1:5000']);
});

test('a component on a registry the user named is pulled from', () => {
  nameTargets(['https://registry.example.test:5000']);
  const { opened, pool: p } = pool();
  p.client('oci://registry.example.test:5000');
  assert.deepEqual(opened, ['https://registry.example.test:5000']);
});
