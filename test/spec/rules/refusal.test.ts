// CLIENT-403-NOT-REPEATED: the errata's reading of automatic repetition, on requests as the judging WFM records them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPEAT_LIMIT, repeatedAutomatically, repeatsAfterRefusal, type SentRequest } from '../../../spec/rules/refusal.ts';

const at = (ms: number) => new Date(Date.UTC(2026, 10, 26) + ms).toISOString();
const poll = (seq: number, ms: number, status: number): SentRequest => ({
  seq,
  at: at(ms),
  method: 'GET',
  target: '/api/v1/clients/c1/deployments?x=1',
  status,
});

test('no 403: nothing is a repeat', () => {
  assert.deepEqual(repeatsAfterRefusal([poll(1, 0, 200), poll(2, 100, 200)]), { repeats: [] });
});

test("a poll every 500 ms after the 403 repeats it automatically; one every 2 s is the client's cadence", () => {
  const fast = [poll(1, 0, 403), ...Array.from({ length: 20 }, (_, i) => poll(i + 2, (i + 1) * 500, 403))];
  const { refused, repeats } = repeatsAfterRefusal(fast);
  assert.equal(refused?.seq, 1);
  assert.equal(repeats.length, 20);
  assert.equal(repeatedAutomatically(repeats), true);
  const slow = [poll(1, 0, 403), ...Array.from({ length: 8 }, (_, i) => poll(i + 2, (i + 1) * 2_000, 403))];
  assert.equal(repeatsAfterRefusal(slow).repeats.length, REPEAT_LIMIT);
  assert.equal(repeatedAutomatically(repeatsAfterRefusal(slow).repeats), false);
});

test('other requests, and the query string, do not change what the refused request is', () => {
  const xs = [
    poll(1, 0, 403),
    { seq: 2, at: at(10), method: 'POST', target: '/api/v1/clients/c1/deployments/d/status', status: 403 },
    poll(3, 20, 403),
  ];
  assert.deepEqual(
    repeatsAfterRefusal(xs).repeats.map((x) => x.seq),
    [3],
  );
});
