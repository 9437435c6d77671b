import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopbackHost, parseLoopbackUrl } from '../../spec/loopback.ts';

test('loopback hosts: 127.0.0.0/8, ::1 (bracketed or not), localhost; nothing else', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost']) assert.equal(isLoopbackHost(h), true, h);
  for (const h of ['0.0.0.0', '10.0.0.1', '192.168.1.1', '128.0.0.1', '::', 'example.com', '127.example.com', 'localhost.evil']) {
    assert.equal(isLoopbackHost(h), false, h);
  }
});

test('parseLoopbackUrl refuses other schemes and hosts with a reason naming the flag', () => {
  assert.equal(parseLoopbackUrl('https://127.0.0.1:8443/x', '--wfm').port, '8443');
  assert.throws(
    () => parseLoopbackUrl('https://10.1.1.1', '--wfm'),
    /--wfm: 10\.1\.1\.1 is not on a loopback address; the kit only ever sends traffic to/,
  );
  assert.throws(() => parseLoopbackUrl('ftp://127.0.0.1', '--registry'), /--registry: .* not an http\(s\) URL/);
  assert.throws(() => parseLoopbackUrl('nope', '--wfm'), /not an absolute URL/);
});
