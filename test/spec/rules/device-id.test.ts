import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ancestorsOf, childId, depthOf, isDescendantOf, isValidDeviceId, parentOf, parseDeviceId } from '../../../spec/rules/device-id.ts';
import { fcOptions } from '../../support/fc.ts';

const fcOpts = fcOptions(300);
const UNRESERVED = 'ABCXYZabcxyz0129-._~';
const segmentArb = fc.string({ unit: fc.constantFrom(...UNRESERVED), minLength: 1, maxLength: 8 }).filter((s) => s !== '.' && s !== '..');
const segmentsArb = fc.array(segmentArb, { minLength: 1, maxLength: 5 });

test('§2.1.1 ids of the spec: a gateway, a child behind it, and a deeper path with an intermediate id', () => {
  assert.deepEqual(parseDeviceId('gateway-1'), { ok: true, segments: ['gateway-1'] });
  assert.deepEqual(parseDeviceId('gateway-1/child_2'), { ok: true, segments: ['gateway-1', 'child_2'] });
  assert.deepEqual(parseDeviceId('gw/intermediate.A/dev~3'), { ok: true, segments: ['gw', 'intermediate.A', 'dev~3'] });
});

test('§4.1 the first id is required and no segment may be empty', () => {
  for (const id of ['', '/a', 'a/', 'a//b', '/']) assert.equal(isValidDeviceId(id), false, id);
});

test('§4.1 characters outside RFC 3986 unreserved are refused, percent-encoding included', () => {
  for (const id of ['a b', 'a%20b', 'a:b', 'a?b', 'a#b', 'dév', 'a+b', 'a@b', 'a\\b']) {
    const parsed = parseDeviceId(id);
    assert.equal(parsed.ok, false, id);
    if (!parsed.ok) assert.match(parsed.reason, /unreserved/);
  }
});

test('dot segments are refused because URL clients normalise them into another device path', () => {
  for (const id of ['.', '..', 'a/../b', 'a/./b', 'a/..']) {
    const parsed = parseDeviceId(id);
    assert.equal(parsed.ok, false, id);
    if (!parsed.ok) assert.match(parsed.reason, /dot segment/);
  }
  assert.equal(new URL('/api/v1/capabilities/a/../b', 'http://127.0.0.1').pathname, '/api/v1/capabilities/b');
  assert.equal(isValidDeviceId('a/.../b'), true);
  assert.equal(isValidDeviceId('.hidden/..x'), true);
});

test('hierarchy helpers on a three-level id', () => {
  assert.equal(parentOf('gw/mid/dev'), 'gw/mid');
  assert.equal(parentOf('gw'), undefined);
  assert.deepEqual(ancestorsOf('gw/mid/dev'), ['gw', 'gw/mid']);
  assert.equal(depthOf('gw'), 0);
  assert.equal(depthOf('gw/mid/dev'), 2);
  assert.equal(isDescendantOf('gw/mid/dev', 'gw'), true);
  assert.equal(isDescendantOf('gw', 'gw'), false);
  assert.equal(isDescendantOf('gwx/dev', 'gw'), false, 'a string prefix is not a parent');
  assert.equal(childId('gw/mid', 'dev'), 'gw/mid/dev');
});

test('helpers on invalid ids answer "nothing" rather than a wrong hierarchy', () => {
  assert.equal(parentOf('a//b'), undefined);
  assert.deepEqual(ancestorsOf('a/../b'), []);
  assert.equal(depthOf(''), -1);
  assert.equal(isDescendantOf('a/b', 'a/'), false);
  assert.throws(() => childId('gw', 'a/b'), RangeError);
  assert.throws(() => childId('gw', '..'), RangeError);
  assert.throws(() => childId('', 'x'), RangeError);
});

test('property: ids built from unreserved segments parse back to those segments', () => {
  fc.assert(
    fc.property(segmentsArb, (segments) => {
      const parsed = parseDeviceId(segments.join('/'));
      assert.deepEqual(parsed, { ok: true, segments });
    }),
    fcOpts,
  );
});

test('property: a valid id survives URL path normalisation unchanged, so one request addresses one device', () => {
  fc.assert(
    fc.property(segmentsArb, (segments) => {
      const path = `/api/v1/capabilities/${segments.join('/')}`;
      assert.equal(new URL(path, 'http://127.0.0.1').pathname, path);
    }),
    fcOpts,
  );
});

test('property: any character outside unreserved and "/" makes the id invalid', () => {
  const bad = fc.string({ minLength: 1, maxLength: 1 }).filter((c) => !/[A-Za-z0-9._~/-]/.test(c));
  fc.assert(
    fc.property(segmentsArb, bad, fc.nat(), (segments, c, at) => {
      const id = segments.join('/');
      const i = at % (id.length + 1);
      assert.equal(isValidDeviceId(id.slice(0, i) + c + id.slice(i)), false);
    }),
    fcOpts,
  );
});

test('property: childId, parentOf, ancestorsOf, depthOf and isDescendantOf agree', () => {
  fc.assert(
    fc.property(segmentsArb, segmentArb, (segments, local) => {
      const parent = segments.join('/');
      const child = childId(parent, local);
      assert.equal(parentOf(child), parent);
      assert.deepEqual(ancestorsOf(child), [...ancestorsOf(parent), parent]);
      assert.equal(depthOf(child), depthOf(parent) + 1);
      assert.equal(depthOf(child), ancestorsOf(child).length);
      for (const a of ancestorsOf(child)) assert.equal(isDescendantOf(child, a), true);
      assert.equal(isDescendantOf(parent, child), false);
    }),
    fcOpts,
  );
});
