// §2.1.1 memory and storage quantities `<amount> <unit>` in binary units, with profiles.md P8 (space optional).

export type QuantityField = 'memory' | 'storage';
export type QuantityFormat = 'spaced' | 'compact';

/** Binary units and their power of 1024, smallest first. */
const UNIT_POWERS = { Ki: 1n, Mi: 2n, Gi: 3n, Ti: 4n, Pi: 5n, Ei: 6n } as const;
export type QuantityUnit = keyof typeof UNIT_POWERS;

export const QUANTITY_UNITS: Record<QuantityField, readonly QuantityUnit[]> = {
  memory: ['Ki', 'Mi', 'Gi'],
  storage: ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'],
};

/**
 * Amount: digits, optionally `.digits` (Kubernetes allows `1.5Gi`; "<amount>" does not forbid a fraction).
 * Separator: one space or none (P8). No sign, exponent, leading/trailing blanks or unit-less bytes.
 */
const QUANTITY = /^(\d+)(?:\.(\d+))?( ?)([A-Za-z]+)$/;

export type QuantityParse =
  { ok: true; bytes: bigint; amount: string; unit: QuantityUnit; spaced: boolean } | { ok: false; reason: string };

export function unitBytes(unit: QuantityUnit): bigint {
  return 1024n ** UNIT_POWERS[unit];
}

export function parseQuantity(text: string, field: QuantityField): QuantityParse {
  const m = QUANTITY.exec(text);
  if (!m) return { ok: false, reason: `§2.1.1: ${field} "${text}" is not "<amount> <unit>" with a non-negative decimal amount` };
  const [, whole = '', fraction = '', space, unit = ''] = m;
  if (!(QUANTITY_UNITS[field] as readonly string[]).includes(unit)) {
    return { ok: false, reason: `§2.1.1: ${field} unit "${unit}" is not one of ${QUANTITY_UNITS[field].join(', ')}` };
  }
  const perUnit = unitBytes(unit as QuantityUnit);
  // A fraction rounds down to a whole byte.
  const fractionBytes = fraction === '' ? 0n : (BigInt(fraction) * perUnit) / 10n ** BigInt(fraction.length);
  const amount = fraction === '' ? whole : `${whole}.${fraction}`;
  return { ok: true, bytes: BigInt(whole) * perUnit + fractionBytes, amount, unit: unit as QuantityUnit, spaced: space === ' ' };
}

/** Writes a quantity in either P8 form; throws for an amount or unit that parseQuantity would refuse. */
export function formatQuantity(amount: number | string, unit: string, format: QuantityFormat): string {
  const text = `${amount}${format === 'spaced' ? ' ' : ''}${unit}`;
  if (!parseQuantity(text, 'storage').ok) throw new RangeError(`formatQuantity: "${text}" is not a valid quantity`);
  return text;
}

/**
 * The canonical text of a byte count: the largest unit of `field` that divides it exactly; a count that is no
 * whole number of Ki is written in Ki with an exact decimal fraction (1/1024 always terminates in base 10).
 */
export function canonicalQuantity(bytes: bigint, field: QuantityField, format: QuantityFormat = 'spaced'): string {
  if (bytes < 0n) throw new RangeError('canonicalQuantity: negative byte count');
  const units = [...QUANTITY_UNITS[field]].reverse();
  const unit = units.find((u) => bytes % unitBytes(u) === 0n) ?? 'Ki';
  return formatQuantity(exactAmount(bytes, unitBytes(unit)), unit, format);
}

function exactAmount(bytes: bigint, perUnit: bigint): string {
  const whole = bytes / perUnit;
  let rest = bytes % perUnit;
  if (rest === 0n) return whole.toString();
  let digits = '';
  while (rest !== 0n) {
    rest *= 10n;
    digits += (rest / perUnit).toString();
    rest %= perUnit;
  }
  return `${whole}.${digits}`;
}

/** §2.2 opaque gateway: the sum of several quantities, canonical; throws on any unparseable text. */
export function sumQuantities(texts: readonly string[], field: QuantityField, format: QuantityFormat = 'spaced'): string {
  let total = 0n;
  for (const text of texts) {
    const parsed = parseQuantity(text, field);
    if (!parsed.ok) throw new RangeError(`sumQuantities: ${parsed.reason}`);
    total += parsed.bytes;
  }
  return canonicalQuantity(total, field, format);
}
