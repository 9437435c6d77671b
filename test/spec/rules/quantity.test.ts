import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  canonicalQuantity,
  formatQuantity,
  parseQuantity,
  QUANTITY_UNITS,
  sumQuantities,
  unitBytes,
} from '../../../spec/rules/quantity.ts';
import { fcOptions } from '../../support/fc.ts';

const fcOpts = fcOptions(300);
const GI = 1024n ** 3n;

test('§2.1.1 and P8: "16 Gi" and "16Gi" are both 16 GiB, one spaced and one compact', () => {
  assert.deepEqual(parseQuantity('16 Gi', 'memory'), { ok: true, bytes: 16n * GI, amount: '16', unit: 'Gi', spaced: true });
  assert.deepEqual(parseQuantity('16Gi', 'memory'), { ok: true, bytes: 16n * GI, amount: '16', unit: 'Gi', spaced: false });
});

test('§2.1.1 memory takes Ki, Mi, Gi; storage also Ti, Pi, Ei', () => {
  assert.equal(parseQuantity('512 Mi', 'memory').ok, true);
  assert.equal(parseQuantity('1 Ti', 'memory').ok, false);
  const ei = parseQuantity('2 Ei', 'storage');
  assert.equal(ei.ok && ei.bytes, 2n * 1024n ** 6n);
  assert.equal(parseQuantity('256 Ti', 'storage').ok, true);
});

test('fractions are allowed and round down to a whole byte', () => {
  const half = parseQuantity('1.5 Gi', 'memory');
  assert.equal(half.ok && half.bytes, GI + GI / 2n);
  const tiny = parseQuantity('0.001 Ki', 'memory');
  assert.equal(tiny.ok && tiny.bytes, 1n);
});

test('refused: decimal units, wrong case, no unit, signs, exponents, stray blanks, bare dots', () => {
  for (const text of [
    '16 GB',
    '16 G',
    '16 gi',
    '16',
    '-1 Gi',
    '+1 Gi',
    '1e3 Mi',
    ' 16 Gi',
    '16 Gi ',
    '16  Gi',
    '16\tGi',
    '.5 Gi',
    '5. Gi',
    '',
    'Gi',
  ]) {
    const parsed = parseQuantity(text, 'storage');
    assert.equal(parsed.ok, false, JSON.stringify(text));
    if (!parsed.ok) assert.match(parsed.reason, /§2\.1\.1/);
  }
});

test('formatQuantity writes both P8 forms and refuses what parseQuantity refuses', () => {
  assert.equal(formatQuantity(16, 'Gi', 'spaced'), '16 Gi');
  assert.equal(formatQuantity('1.5', 'Ti', 'compact'), '1.5Ti');
  assert.throws(() => formatQuantity(-1, 'Gi', 'spaced'), RangeError);
  assert.throws(() => formatQuantity(1e21, 'Gi', 'spaced'), RangeError);
  assert.throws(() => formatQuantity(1, 'GB', 'spaced'), RangeError);
});

test('sumQuantities picks the largest unit that divides exactly', () => {
  assert.equal(sumQuantities(['8 Gi', '8Gi'], 'memory'), '16 Gi');
  assert.equal(sumQuantities(['1 Gi', '512 Mi'], 'memory'), '1536 Mi');
  assert.equal(sumQuantities(['512 Ti', '512 Ti'], 'storage'), '1 Pi');
  assert.equal(sumQuantities(['1024 Gi'], 'memory'), '1024 Gi', 'memory has no Ti');
  assert.equal(sumQuantities([], 'memory'), '0 Gi');
  assert.equal(sumQuantities(['1 Gi'], 'memory', 'compact'), '1Gi');
  assert.equal(sumQuantities(['0.001 Ki'], 'memory'), '0.0009765625 Ki', 'a byte count that is no whole Ki keeps an exact fraction');
  assert.throws(() => sumQuantities(['1 GB'], 'memory'), RangeError);
});

const unitArb = (field: 'memory' | 'storage') => fc.constantFrom(...QUANTITY_UNITS[field]);
const amountArb = fc
  .tuple(fc.bigInt(0n, 10n ** 6n), fc.option(fc.stringMatching(/^\d{1,4}$/), { nil: undefined }))
  .map(([whole, frac]) => (frac === undefined ? whole.toString() : `${whole}.${frac}`));

test('property: both P8 forms of one quantity parse to the same bytes', () => {
  fc.assert(
    fc.property(amountArb, unitArb('storage'), (amount, unit) => {
      const spaced = parseQuantity(formatQuantity(amount, unit, 'spaced'), 'storage');
      const compact = parseQuantity(formatQuantity(amount, unit, 'compact'), 'storage');
      assert.ok(spaced.ok && compact.ok);
      assert.equal(spaced.bytes, compact.bytes);
      assert.equal(spaced.spaced && !compact.spaced, true);
    }),
    fcOpts,
  );
});

test('property: bytes are exact: whole amounts are amount times the unit, fractions stay within one unit', () => {
  fc.assert(
    fc.property(fc.bigInt(0n, 10n ** 9n), unitArb('storage'), fc.stringMatching(/^\d{1,6}$/), (whole, unit, frac) => {
      const exact = parseQuantity(`${whole} ${unit}`, 'storage');
      const withFraction = parseQuantity(`${whole}.${frac} ${unit}`, 'storage');
      assert.ok(exact.ok && withFraction.ok);
      assert.equal(exact.bytes, whole * unitBytes(unit));
      assert.ok(withFraction.bytes >= exact.bytes && withFraction.bytes < exact.bytes + unitBytes(unit));
    }),
    fcOpts,
  );
});

test('property: canonicalQuantity round-trips any byte count exactly', () => {
  fc.assert(
    fc.property(fc.bigInt(0n, 2n ** 70n), fc.constantFrom('memory' as const, 'storage' as const), (bytes, field) => {
      const parsed = parseQuantity(canonicalQuantity(bytes, field), field);
      assert.ok(parsed.ok);
      assert.equal(parsed.bytes, bytes);
    }),
    fcOpts,
  );
});

test('property: sumQuantities equals the sum of the parts and ignores their order', () => {
  const partArb = fc
    .tuple(fc.bigInt(0n, 4096n), unitArb('memory'), fc.boolean())
    .map(([n, u, s]) => formatQuantity(n.toString(), u, s ? 'spaced' : 'compact'));
  fc.assert(
    fc.property(fc.array(partArb, { maxLength: 8 }), (parts) => {
      const total = parts.reduce((sum, p) => {
        const q = parseQuantity(p, 'memory');
        assert.ok(q.ok);
        return sum + q.bytes;
      }, 0n);
      const sum = parseQuantity(sumQuantities(parts, 'memory'), 'memory');
      assert.ok(sum.ok);
      assert.equal(sum.bytes, total);
      assert.equal(sumQuantities([...parts].reverse(), 'memory'), sumQuantities(parts, 'memory'));
    }),
    fcOpts,
  );
});
