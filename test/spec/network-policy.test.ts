// spec/network-policy.ts: the hosts the user names and loopback, nothing else, in one wording.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  forgetNamedTargets,
  hostOf,
  isNamedHost,
  mayContact,
  nameTargets,
  parseTargetUrl,
  refusal,
  remoteNotice,
} from '../../spec/network-policy.ts';

afterEach(forgetNamedTargets);

test('a target the user names may be on any host; only http(s) absolute URLs are targets', () => {
  assert.equal(parseTargetUrl('https://wfm.staging.acme.internal:8443/x', '--wfm').hostname, 'wfm.staging.acme.internal');
  assert.equal(parseTargetUrl('https://10.1.1.1', '--wfm').hostname, '10.1.1.1');
  assert.throws(() => parseTargetUrl('ftp://127.0.0.1', '--registry'), /^Error: --registry: .* not an http\(s\) URL/);
  assert.throws(() => parseTargetUrl('nope', '--wfm'), /^Error: --wfm: "nope" is not an absolute URL/);
});

test('before any target is named, only loopback may be contacted (the reference services stay there)', () => {
  for (const h of ['127.0.0.1', '127.9.9.9', '::1', '[::1]', 'localhost']) assert.equal(mayContact(h), true, h);
  for (const h of ['wfm.example.test', '10.0.0.1', '[2001:db8::1]', 'localhost.evil']) assert.equal(mayContact(h), false, h);
});

test('a named host may be contacted, whatever the URL it came in (scheme, port, case, brackets); its neighbours may not', () => {
  assert.deepEqual(
    nameTargets([
      'https://WFM.example.test:8443/api',
      undefined,
      'oci://registry.example.test:5000/acme/app',
      new URL('https://[2001:db8::1]/'),
    ]),
    ['wfm.example.test', 'registry.example.test', '2001:db8::1'],
  );
  for (const h of ['wfm.example.test', 'Wfm.Example.Test', 'registry.example.test', '[2001:db8::1]', '2001:db8::1'])
    assert.equal(mayContact(h), true, h);
  for (const h of ['evil.example.test', 'example.test', 'wfm.example.test.evil', '2001:db8::2']) {
    assert.equal(mayContact(h), false, h);
    assert.equal(isNamedHost(h), false, h);
  }
});

test('hostOf reads a URL or a bare host[:port]', () => {
  assert.equal(hostOf('registry.example.test:5000'), 'registry.example.test');
  assert.equal(hostOf('oci://[::1]:5000/a/b'), '::1');
});

test('the refusal says the policy in one wording', () => {
  assert.equal(
    refusal('x.example'),
    'x.example is neither a named target nor on loopback; the kit sends traffic only to the hosts you name and to loopback',
  );
});

test('one notice when any named host is off loopback, naming each once; none for loopback targets', () => {
  assert.equal(remoteNotice(['127.0.0.1', 'localhost', '::1']), undefined);
  const notice = remoteNotice(['wfm.example.test', '127.0.0.1', 'wfm.example.test', 'registry.example.test'])!;
  assert.match(
    notice,
    /^notice: wfm\.example\.test, registry\.example\.test are not on loopback: the kit sends hostile inputs .* and load there/,
  );
  assert.equal(notice.split('\n').length, 1);
});
