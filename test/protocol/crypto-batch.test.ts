// The crypto batch runs a turn's native operations back to back, after the code that queued them, each settling its
// own promise: same results, same errors, only later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { inCryptoBatch } from '../../protocol/crypto-batch.ts';

test("a turn's operations run together, in order, after the code that queued them; a throw rejects only its own", async () => {
  const ran: number[] = [];
  const promises = [1, 2, 3].map((n) =>
    inCryptoBatch(() => {
      ran.push(n);
      if (n === 2) throw new Error('two');
      return n * 10;
    }),
  );
  ran.push(0);
  await Promise.resolve();
  assert.deepEqual(ran, [0], 'nothing runs in the turn that queued it, nor in its microtasks');
  const settled = await Promise.allSettled(promises);
  assert.deepEqual(ran, [0, 1, 2, 3]);
  assert.deepEqual(
    settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message)),
    [10, 'two', 30],
  );
});

test('an operation queued while a batch settles runs in the next batch, and batches keep coming', async () => {
  const order: string[] = [];
  const first = inCryptoBatch(() => order.push('first')).then(() => inCryptoBatch(() => order.push('second')));
  await first;
  for (let i = 0; i < 3; i++) await inCryptoBatch(() => order.push(`again ${i}`));
  assert.deepEqual(order, ['first', 'second', 'again 0', 'again 1', 'again 2']);
});

test('a native P-256 sign and verify give the same answers in a batch as outside one', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const data = Buffer.from('@method: PUT');
  const signatures = await Promise.all(
    Array.from({ length: 8 }, () => inCryptoBatch(() => sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' }))),
  );
  for (const s of signatures) assert.equal(verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, s), true);
  const tampered = Buffer.from(signatures[0]!);
  tampered[5]! ^= 1;
  const verdicts = await Promise.all(
    [signatures[1]!, tampered].map((s) => inCryptoBatch(() => verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, s))),
  );
  assert.deepEqual(verdicts, [true, false]);
});
