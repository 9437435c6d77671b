import { test } from 'node:test';
import assert from 'node:assert/strict';
import { urlHostPart } from '../../protocol/url-host.ts';

test('a wildcard listen address is no URL host: the first --hostname, else loopback; any other address is its own', () => {
  assert.equal(urlHostPart('0.0.0.0', ['wfm', 'wfm.ns.svc']), 'wfm');
  assert.equal(urlHostPart('0.0.0.0'), '127.0.0.1');
  assert.equal(urlHostPart('::'), '[::1]');
  assert.equal(urlHostPart('10.1.2.3', ['wfm']), '10.1.2.3');
  assert.equal(urlHostPart('::1'), '[::1]');
  assert.equal(urlHostPart('127.0.0.1', ['wfm']), '127.0.0.1');
});
