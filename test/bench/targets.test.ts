// Targets beside figures: a met target says nothing more; a missed one says by how much, in the figure's unit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { format, judge } from '../../bench/targets.ts';

test('a rate at or above its floor is met; below it, the gap and its share of the target are given', () => {
  assert.equal(judge('r', 'ratio', 0.9, '', '>=', 0.9).met, true);
  const missed = judge('r', 'ratio', 0.72, '', '>=', 0.9);
  assert.equal(missed.met, false);
  assert.equal(missed.missedBy, '0.18 below (20%)');
});

test('a ceiling missed says how much over, with the unit', () => {
  assert.equal(judge('m', 'heap', 4096, 'B', '<=', 4096).met, true);
  assert.equal(judge('m', 'heap', 4808, 'B', '<=', 4096).missedBy, '712 B over (17%)');
  assert.equal(judge('s', 'suite', 120, 's', '<', 120).missedBy, '0 s over (0%)');
  assert.equal(judge('s', 'suite', 11.4, 's', '<', 120).met, true);
});

test('numbers keep three significant digits at most', () => {
  assert.equal(format(1234.5), '1235');
  assert.equal(format(12.345), '12.3');
  assert.equal(format(0.12345), '0.12');
});
