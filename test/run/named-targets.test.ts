// run/contract/named-targets.ts: every URL a run names (its config's or its context's targets) becomes a named host of the
// network policy in the process that installs them; the notice names those off loopback.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { installTargets, targetUrls } from '../../run/contract/named-targets.ts';
import { forgetNamedTargets, mayContact } from '../../spec/network-policy.ts';

afterEach(forgetNamedTargets);

const REMOTE = {
  wfm: 'https://wfm.example.test:8443',
  identity: 'https://id.example.test',
  discovery: 'https://disco.example.test/.well-known/acme',
  trustBundleUri: 'https://bundle.example.test/b.jwks',
  extraDiscovery: ['https://other-td.example.test/.well-known/acme'],
  registry: 'https://registry.example.test:5000',
  registryRepository: 'wfmck/conformance',
  trustDomain: 'not-a-url.example.test',
};

test('every target URL counts, extra discovery URLs included; the repository and trust domain are not hosts', () => {
  assert.deepEqual(targetUrls(REMOTE).length, 6);
  assert.equal(mayContact('wfm.example.test'), false, 'nothing named before install');
  installTargets(REMOTE);
  for (const h of [
    'wfm.example.test',
    'id.example.test',
    'disco.example.test',
    'bundle.example.test',
    'other-td.example.test',
    'registry.example.test',
  ])
    assert.equal(mayContact(h), true, h);
  assert.equal(mayContact('not-a-url.example.test'), false);
});

test('one notice for targets off loopback, none for the embedded default on loopback', () => {
  assert.equal(installTargets({ wfm: 'https://127.0.0.1:8443', registry: 'https://localhost:5000' }), undefined);
  assert.match(
    installTargets({ wfm: 'https://wfm.example.test', registry: 'https://127.0.0.1:5000' })!,
    /^notice: wfm\.example\.test is not on loopback/,
  );
});
