// What a fleet's devices share: a result computed once per exact input, the newest few kept, nothing else handed out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecentResults } from '../../simulators/recent-results.ts';

test('a result is computed once per key, kept for the newest `size` keys only, undefined and rejections kept as they are', async () => {
  const kept = new RecentResults<unknown>(2);
  let computed = 0;
  const get = (key: string, value: unknown) => kept.get(key, () => (computed++, value));
  assert.equal(get('a', 1), 1);
  assert.equal(get('a', 2), 1, 'the same key, the first result');
  assert.equal(computed, 1);
  assert.equal(get('u', undefined), undefined);
  assert.equal(get('u', 'other'), undefined, 'an undefined result is a result');
  assert.equal(computed, 2);
  assert.equal(get('b', 3), 3, 'a third key pushes out the oldest (a)');
  assert.equal(get('a', 4), 4, 'a is computed again');
  assert.equal(computed, 4);
  const failing = new RecentResults<Promise<never>>(2);
  const first = failing.get('x', () => Promise.reject(new Error('unreadable')));
  await assert.rejects(first, /unreadable/);
  assert.equal(
    failing.get('x', () => Promise.reject(new Error('other'))),
    first,
    'the same bytes fail the same way',
  );
});
