// The shared deadlines (simulators/transport/deadlines.ts): one timer per timeout length, exchanges expired in order,
// a removed one never expired, and no timer left once nothing waits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addDeadline, removeDeadline, type Expiring } from '../../simulators/transport/deadlines.ts';

function entry(expired: string[], name: string): Expiring {
  return {
    expire: () => void expired.push(name),
    deadlineAt: 0,
    deadlinePrev: undefined,
    deadlineNext: undefined,
    deadlineList: undefined,
  };
}

test('exchanges of one length expire in the order they began; a removed one does not', async () => {
  const expired: string[] = [];
  const [a, b, c] = ['a', 'b', 'c'].map((name) => entry(expired, name));
  addDeadline(a!, 30);
  addDeadline(b!, 30);
  await new Promise((resolve) => setTimeout(resolve, 10));
  addDeadline(c!, 30);
  removeDeadline(b!);
  await new Promise((resolve) => setTimeout(resolve, 25));
  assert.deepEqual(expired, ['a']);
  await new Promise((resolve) => setTimeout(resolve, 25));
  assert.deepEqual(expired, ['a', 'c']);
  removeDeadline(c!); // already expired: nothing to do
  assert.equal(c!.deadlineList, undefined);
});

test('lengths do not wait on each other, and removing the last entry leaves no timer behind', async () => {
  const expired: string[] = [];
  const long = entry(expired, 'long');
  const short = entry(expired, 'short');
  addDeadline(long, 60_000);
  addDeadline(short, 20);
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.deepEqual(expired, ['short']);
  // Were the 60 s timer left armed, this test file would not end for a minute (node --test would show it).
  removeDeadline(long);
});
