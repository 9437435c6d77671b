// The on-disk memo of parsed YAML: a hit equals a parse, errors stay yaml's, and what JSON cannot carry is not memoised.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { parse } from 'yaml';
import { memoFile, parseYaml } from '../../spec/yaml-memo.ts';

test('a memoised parse, first and second time, equals yaml parse', () => {
  const text = `# ${randomBytes(8).toString('hex')}\n- id: A-1\n  text: "x: y"\n  editions: [seed, miaf]\n  n: 3\n`;
  const file = memoFile(text)!;
  assert.ok(file && !existsSync(file));
  try {
    assert.deepEqual(parseYaml(text, true), parse(text));
    assert.ok(existsSync(file), 'the first parse is memoised');
    assert.deepEqual(parseYaml(text, true), parse(text));
  } finally {
    rmSync(file, { force: true });
  }
});

test('without memo it is yaml parse', () => {
  assert.deepEqual(parseYaml('a: [1, 2]\n'), { a: [1, 2] });
});

test('invalid YAML throws what yaml throws, memo or not', () => {
  const bad = `k: ${randomBytes(4).toString('hex')}\nk: twice\n`;
  const expected = (() => {
    try {
      parse(bad);
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  })();
  assert.throws(() => parseYaml(bad, true), { message: expected });
  assert.throws(() => parseYaml(bad, false), { message: expected });
});

test('values JSON would change (.inf, -0) come back as yaml gives them', () => {
  const text = `# ${randomBytes(8).toString('hex')}\nbig: .inf\nzero: -0.0\n`;
  for (let i = 0; i < 2; i++) {
    const doc = parseYaml(text, true) as { big: number; zero: number };
    assert.equal(doc.big, Infinity);
    assert.ok(Object.is(doc.zero, -0));
  }
  assert.equal(existsSync(memoFile(text)!), false);
});
