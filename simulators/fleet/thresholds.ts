// Pass/fail thresholds of a fleet, as a load tool's users write them (`p95<200ms`, `errors<0.1%`): parsed once from
// the flag or the fleet file, judged on the figures of fleet-summary.json, so `wfmck merge` judges them again on the
// merged figures exactly. A latency threshold without an endpoint holds for every endpoint (the worst one decides).
import type { LatencySummary } from './histogram.ts';

export type Metric = 'p50' | 'p95' | 'p99' | 'max' | 'mean' | 'errors';
export type Operator = '<' | '<=' | '>' | '>=';

export interface Threshold {
  /** As written, for the summary and the console. */
  source: string;
  metric: Metric;
  /** Latency of one endpoint (`capabilities.put:p95<100ms`); none: every endpoint. */
  endpoint?: string;
  op: Operator;
  /** Milliseconds for latency; for errors, a ratio (0.001 for 0.1%) when `percent`, else a count. */
  value: number;
  percent?: boolean;
}

export interface ThresholdResult {
  threshold: string;
  /** What the fleet measured, in the threshold's unit (ms, %, or a count); null when nothing was measured. */
  observed: number | null;
  /** The endpoint whose figure decided, for a threshold over every endpoint. */
  endpoint?: string;
  ok: boolean;
}

/** The figures thresholds read: what fleet-summary.json carries. */
export interface ThresholdFigures {
  latency: Partial<Record<string, LatencySummary>>;
  requests: { total: number; unexpected: number; transportErrors: number };
}

const GRAMMAR = /^(?:([a-z][a-z.-]*):)?(p50|p95|p99|max|mean|errors)\s*(<=|>=|<|>)\s*(\d+(?:\.\d+)?)\s*(ms|s|%)?$/;
const FIELD: Record<Exclude<Metric, 'errors'>, 'p50Ms' | 'p95Ms' | 'p99Ms' | 'maxMs' | 'meanMs'> = {
  p50: 'p50Ms',
  p95: 'p95Ms',
  p99: 'p99Ms',
  max: 'maxMs',
  mean: 'meanMs',
};

export function parseThreshold(text: string): Threshold {
  const source = text.trim();
  const m = GRAMMAR.exec(source);
  if (!m)
    throw new Error(
      `"${text}" is not a threshold: [ENDPOINT:]p50|p95|p99|max|mean <|<=|>|>= N ms|s (e.g. p95<200ms, capabilities.put:p99<1s), or errors < N% or N (e.g. errors<0.1%)`,
    );
  const [, endpoint, metric, op, number, unit] = m as unknown as [string, string | undefined, Metric, Operator, string, string | undefined];
  const n = Number(number);
  if (metric === 'errors') {
    if (endpoint) throw new Error(`"${text}": errors count over the whole fleet, not per endpoint`);
    if (unit === 'ms' || unit === 's') throw new Error(`"${text}": errors are a share (%) or a count, not a time`);
    return { source, metric, op, value: unit === '%' ? n / 100 : n, ...(unit === '%' && { percent: true }) };
  }
  if (unit === '%') throw new Error(`"${text}": ${metric} is a time (ms or s), not a share`);
  return { source, metric, ...(endpoint && { endpoint }), op, value: unit === 's' ? n * 1000 : n };
}

const holds = (observed: number, op: Operator, limit: number): boolean =>
  op === '<' ? observed < limit : op === '<=' ? observed <= limit : op === '>' ? observed > limit : observed >= limit;

export function judgeThreshold(t: Threshold, figures: ThresholdFigures): ThresholdResult {
  if (t.metric === 'errors') {
    const { total, unexpected, transportErrors } = figures.requests;
    const errors = unexpected + transportErrors;
    const observed = t.percent ? (total === 0 ? 0 : errors / total) : errors;
    return { threshold: t.source, observed: t.percent ? round(observed * 100) : observed, ok: holds(observed, t.op, t.value) };
  }
  const field = FIELD[t.metric];
  const entries = Object.entries(figures.latency).flatMap(([e, s]): [string, LatencySummary][] =>
    s && s.count > 0 && (t.endpoint === undefined || e === t.endpoint) ? [[e, s]] : [],
  );
  // Nothing measured: a bound on time cannot be said to hold.
  if (entries.length === 0) return { threshold: t.source, observed: null, ...(t.endpoint && { endpoint: t.endpoint }), ok: false };
  // The endpoint furthest from holding decides: the largest figure for an upper bound, the smallest for a lower one.
  const upper = t.op === '<' || t.op === '<=';
  const [endpoint, summary] = entries.reduce((a, b) => ((upper ? b[1][field] > a[1][field] : b[1][field] < a[1][field]) ? b : a));
  const observed = summary[field];
  return { threshold: t.source, observed, endpoint, ok: holds(observed, t.op, t.value) };
}

export function judgeThresholds(thresholds: readonly string[], figures: ThresholdFigures): ThresholdResult[] {
  return thresholds.map((t) => judgeThreshold(parseThreshold(t), figures));
}

/** One line per threshold for the console: `ok   p95<200ms: 12.3 ms (desired-state)`. */
export function thresholdLines(results: readonly ThresholdResult[]): string[] {
  return results.map((r) => {
    const unit = /%\s*$/.test(r.threshold) ? ' %' : /errors/.test(r.threshold) ? '' : ' ms';
    const observed = r.observed === null ? 'nothing measured' : `${r.observed}${unit}`;
    return `${r.ok ? 'ok  ' : 'FAIL'} threshold ${r.threshold}: ${observed}${r.endpoint ? ` (${r.endpoint})` : ''}`;
  });
}

const round = (n: number) => Math.round(n * 1000) / 1000;
