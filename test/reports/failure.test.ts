// The fixed failure shape: fast-check's seed and path read back from its own text, one replay command, one reason line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_MESSAGE, failureOf, fastCheckReplay, reasonLine, replayCommand, stripAnsi } from '../../reports/failure.ts';

function fastCheckMessage(seed: number): string {
  try {
    fc.assert(
      fc.property(fc.integer(), fc.string(), (n: number, _s: string) => n < 10),
      { seed },
    );
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the property was meant to fail');
}

test('fastCheckReplay reads the seed and path of a real fast-check failure', () => {
  for (const seed of [42, -7, 2147483646]) {
    const message = fastCheckMessage(seed);
    const got = fastCheckReplay(message);
    assert.equal(got.seed, seed);
    assert.match(got.path!, /^\d+(:\d+)*$/);
    assert.ok(message.includes(`path: "${got.path}"`));
  }
  assert.deepEqual(fastCheckReplay('Error: expect(received).toBe(expected)'), {});
});

test('the path read back replays the same counterexample', () => {
  const message = fastCheckMessage(42);
  const { seed, path } = fastCheckReplay(message);
  let replayed = '';
  try {
    fc.assert(
      fc.property(fc.integer(), fc.string(), (n: number, _s: string) => n < 10),
      { seed, path, endOnFailure: true },
    );
  } catch (e) {
    replayed = (e as Error).message;
  }
  assert.equal(/Counterexample: (.*)/.exec(replayed)?.[1], /Counterexample: (.*)/.exec(message)?.[1]);
});

test('replayCommand: one command; a prefix of another id is guarded; the path rides as --path', () => {
  const ids = ['STATUS-PRECEDENCE', 'STATUS-PRECEDENCE-REMOVED', 'CAP-PUT-201'];
  assert.equal(replayCommand('CAP-PUT-201', 42, undefined, ids), "npx wfmck run --seed 42 --grep 'CAP-PUT-201'");
  assert.equal(replayCommand('CAP-PUT-201', undefined, undefined, ids), "npx wfmck run --grep 'CAP-PUT-201'");
  assert.equal(replayCommand('CAP-PUT-201', -3, '6:1:0', ids), "npx wfmck run --seed -3 --path 6:1:0 --grep 'CAP-PUT-201'");
  const guarded = replayCommand('STATUS-PRECEDENCE', 1, undefined, ids);
  const grep = new RegExp(/--grep '(.*)'$/.exec(guarded)![1]!);
  assert.ok(grep.test('status.spec.ts STATUS-PRECEDENCE failed beats removing'));
  assert.ok(grep.test('STATUS-PRECEDENCE'));
  assert.ok(!grep.test('STATUS-PRECEDENCE-REMOVED all removed is removed'), 'the longer id is not selected');
});

test("replayCommand names the run's replay.yaml, so it tests the same target", () => {
  assert.equal(
    replayCommand('CAP-PUT-201', 42, undefined, [], '/out/run 1/replay.yaml'),
    "npx wfmck run --config '/out/run 1/replay.yaml' --seed 42 --grep 'CAP-PUT-201'",
  );
  assert.equal(
    failureOf('x', 'CAP-PUT-201', 3, [], '/o/replay.yaml').replay,
    "npx wfmck run --config /o/replay.yaml --seed 3 --grep 'CAP-PUT-201'",
  );
});

test('reasonLine: what the check said, with Expected and Received, on one line', () => {
  const msg =
    '\u001b[31mError: §4.1: the first PUT creates the document\u001b[39m\n\nexpect(received).toBe(expected) // Object.is equality\n\nExpected: \u001b[32m201\u001b[39m\nReceived: \u001b[31m200\u001b[39m';
  assert.equal(reasonLine(msg), '§4.1: the first PUT creates the document · Expected: 201 · Received: 200');
  assert.equal(reasonLine('WFMCK_E_TIMEOUT: no answer within 10000 ms'), 'WFMCK_E_TIMEOUT: no answer within 10000 ms');
  assert.ok(reasonLine('x'.repeat(1000)).length <= 400);
  assert.equal(
    reasonLine('Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 201\nReceived: 200'),
    'Expected: 201 · Received: 200',
  );
  const property =
    'Error: Property failed after 1 tests\n{ seed: 9, path: "0" }\nCounterexample: [1]\nShrunk 2 time(s)\nGot error: §3: a new document is created: 201\n\nexpect(received).toBe(expected)\n\nExpected: 201\nReceived: 200\n    at check (x.ts:1:1)';
  assert.equal(
    reasonLine(property),
    '§3: a new document is created: 201 · Expected: 201 · Received: 200',
    'a property: the error it got, not its header',
  );
});

test('failureOf: colours stripped, long texts trimmed, the property seed wins over the run seed', () => {
  const colored = '\u001b[2mexpect(\u001b[22m\u001b[31mreceived\u001b[39m\u001b[2m).toBe(\u001b[22mexpected)';
  assert.equal(stripAnsi(colored), 'expect(received).toBe(expected)');
  const f = failureOf(`${colored}\n${'x'.repeat(MAX_MESSAGE + 50)}`, 'CAP-PUT-201', 9);
  assert.ok(!f.message.includes('\u001b'));
  assert.match(f.message, /\(\d+ more characters\)$/);
  assert.equal(f.seed, undefined, 'seed is only set from a property failure');
  assert.equal(f.replay, "npx wfmck run --seed 9 --grep 'CAP-PUT-201'");
  const p = failureOf(fastCheckMessage(42), 'CAP-PUT-201', 9);
  assert.equal(p.seed, 42);
  assert.match(p.replay!, /^npx wfmck run --seed 42 --path [\d:]+ --grep 'CAP-PUT-201'$/);
  assert.equal(failureOf('boom', undefined, 9).replay, undefined, 'no id, no replay');
});
