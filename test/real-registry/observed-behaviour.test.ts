// Each way the real registry (Debian docker-registry) answers differently from the reference registry, asserted on both,
// so a registry upgrade or a reference change that alters one shows up here. The spec's verdict is in observations.ts.
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { startRegistry, type RunningRegistry } from '../../reference/registry/server.ts';
import { OBSERVATIONS } from './observations.ts';
import { useRealRegistry } from './probe.ts';

const real = useRealRegistry();
let reference: RunningRegistry;
before(async () => {
  reference = await startRegistry();
});
after(() => reference.close());

test('the real registry is Debian distribution 2.8', () => {
  assert.match(real.current.version, /github\.com\/docker\/distribution 2\.8\./);
});

for (const o of OBSERVATIONS) {
  test(`real registry (${o.verdict}): ${o.title}`, async () => {
    o.real(await o.probe(real.current.url));
  });
  test(`reference registry, same probe: not "${o.title}"`, async () => {
    o.reference(await o.probe(reference.url));
  });
}
