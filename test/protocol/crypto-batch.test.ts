// The crypto batch runs a turn's native operations back to back, after the code that queued them, each settling its
// own promise: same results, same errors, only later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { BATCH_LIMIT, inCryptoBatch } from '../../protocol/crypto-batch.ts';

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

test('a batch runs at most BATCH_LIMIT operations: the first answers settle before the rest run, order kept', async () => {
  const count = 2 * BATCH_LIMIT + 3;
  const ran: number[] = [];
  const settledBefore: number[] = [];
  let settled = 0;
  const promises = Array.from({ length: count }, (_, n) =>
    inCryptoBatch(() => {
      ran.push(n);
      settledBefore.push(settled);
      return n;
    }).then((value) => {
      settled++;
      return value;
    }),
  );
  const indices = Array.from({ length: count }, (_, n) => n);
  assert.deepEqual(await Promise.all(promises), indices);
  assert.deepEqual(ran, indices, 'in the order queued');
  // Each operation saw every earlier batch settled and none of its own.
  assert.deepEqual(
    settledBefore,
    indices.map((n) => Math.floor(n / BATCH_LIMIT) * BATCH_LIMIT),
  );
});

test('operations queued while a limited batch waits run after it, in the order queued', async () => {
  const ran: string[] = [];
  const early = Array.from({ length: BATCH_LIMIT + 2 }, (_, n) => inCryptoBatch(() => ran.push(`early ${n}`)));
  // Queued by the first batch's settling: behind the two early ones still waiting.
  const late = early[0]!.then(() => inCryptoBatch(() => ran.push('late')));
  await Promise.all([...early, late]);
  assert.deepEqual(ran.slice(BATCH_LIMIT), [`early ${BATCH_LIMIT}`, `early ${BATCH_LIMIT + 1}`, 'late']);
});
