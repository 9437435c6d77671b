import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopbackHost } from '../../spec/loopback.ts';

test('loopback hosts: 127.0.0.0/8, ::1 (bracketed or not), localhost; nothing else', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost']) assert.equal(isLoopbackHost(h), true, h);
  for (const h of ['0.0.0.0', '10.0.0.1', '192.168.1.1', '128.0.0.1', '::', 'example.com', '127.example.com', 'localhost.evil']) {
    assert.equal(isLoopbackHost(h), false, h);
  }
});
