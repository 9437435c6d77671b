// The targets of issue 6 beside their figures: met, or missed by how much (absolute and relative). Pure.

export interface Target {
  id: string;
  /** What is measured, in words. */
  figure: string;
  value: number;
  unit: string;
  comparison: '>=' | '<=' | '<';
  target: number;
  met: boolean;
  /** How far from the target when missed, e.g. "0.12 below (13%)". */
  missedBy?: string;
}

export function judge(id: string, figure: string, value: number, unit: string, comparison: Target['comparison'], target: number): Target {
  const met = comparison === '>=' ? value >= target : comparison === '<=' ? value <= target : value < target;
  const base: Target = { id, figure, value, unit, comparison, target, met };
  if (met) return base;
  const gap = Math.abs(value - target);
  const side = comparison === '>=' ? 'below' : 'over';
  return { ...base, missedBy: `${format(gap)}${unit ? ` ${unit}` : ''} ${side} (${Math.round((gap * 100) / target)}%)` };
}

/** Three significant digits at most, without trailing zeros. */
export function format(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const digits = Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : 2;
  return String(Number(n.toFixed(digits)));
}

export function round(n: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
