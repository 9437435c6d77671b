// The fleet-summary.json of a fleet's shards (`wfmck fleet --shard i/n`, one per machine, or one per worker) as one
// summary: counts summed, latency histograms merged bucket by bucket (so percentiles are exact), unexpected answers
// collapsed and bounded as one run would list them, thresholds judged again on the merged figures. Pure: the caller
// reads the files and writes the result (`wfmck merge`, cli/merge-fleet.ts).
import { Histogram, type LatencySummary } from './histogram.ts';
import type { UnexpectedAnswer } from './stats.ts';
import { verdict, type FleetSummary } from './summary.ts';
import { formatShard } from './spec.ts';

/** Summaries that cannot be merged: missing, of another fleet, given twice, malformed (exit 2, as an input error). */
export class SummaryMergeError extends Error {
  readonly code = 'WFMCK_E_INPUT';
}

/** As many collapsed unexpected answers as one fleet run lists (FleetStats' bound). */
export const MAX_UNEXPECTED = 50;
/** Totals that are settings of the fleet, equal in every shard, never summed. */
const SAME_IN_EVERY_SHARD = new Set(['perDevice']);

export interface MergedSummary extends FleetSummary {
  /** Every shard i/n present exactly once. */
  complete: boolean;
  mergedFrom: { source: string; shard: string }[];
}

export interface ShardSummary {
  source: string;
  summary: FleetSummary;
}

export function mergeSummaries(shards: ShardSummary[]): MergedSummary {
  if (shards.length === 0) throw new SummaryMergeError('no summaries given');
  const [first] = shards as [ShardSummary, ...ShardSummary[]];
  const count = first.summary.spec.shard.count;
  const seen = new Set<number>();
  for (const { source, summary } of shards) {
    if (summary.kind !== 'wfmck-fleet-summary' || summary.version !== 1)
      throw new SummaryMergeError(`${source} is not a version 1 fleet summary`);
    if (summary.seed !== first.summary.seed)
      throw new SummaryMergeError(`${source} has seed ${summary.seed}, ${first.source} has ${first.summary.seed}: not the same fleet`);
    if (settings(summary) !== settings(first.summary))
      throw new SummaryMergeError(`${source} simulates another fleet than ${first.source} (settings differ beyond the shard)`);
    const { index } = summary.spec.shard;
    if (summary.spec.shard.count !== count) throw new SummaryMergeError(`${source} is shard ${summary.shard}, the others are of ${count}`);
    if (seen.has(index)) throw new SummaryMergeError(`shard ${summary.shard} is given twice (${source}): its counts would be added twice`);
    seen.add(index);
  }
  const all = shards.map((s) => s.summary);
  const complete = seen.size === count;
  const whole = { index: 0, count: 1 };
  const unexpected = mergeUnexpected(all);
  const perSecond = (key: keyof FleetSummary['throughput']) => Math.round(all.reduce((n, s) => n + s.throughput[key], 0) * 10) / 10;
  const max = (key: 'wallMs' | 'startPhaseMs' | 'peakRssBytes') => Math.max(...all.map((s) => s[key]));
  const ordered = [...shards].sort((a, b) => a.summary.spec.shard.index - b.summary.spec.shard.index);
  return {
    ...first.summary,
    target: { wfm: [...new Set(all.map((s) => s.target.wfm))].join(', ') },
    spec: complete ? { ...first.summary.spec, shard: whole } : first.summary.spec,
    shard: complete ? formatShard(whole) : ordered.map((s) => s.summary.shard).join(','),
    expected: all.map((s) => s.expected).reduce((a, b) => sum(a, b, 'expected')),
    totals: all.map((s) => s.totals).reduce((a, b) => sum(a, b, 'totals')),
    latency: mergeLatency(all),
    unexpected: unexpected.listed,
    unexpectedNotListed: unexpected.notListed,
    throughput: { onboardedPerSecond: perSecond('onboardedPerSecond'), requestsPerSecond: perSecond('requestsPerSecond') },
    startedAt: all.map((s) => s.startedAt).sort()[0]!,
    endedAt: all
      .map((s) => s.endedAt)
      .sort()
      .at(-1)!,
    wallMs: max('wallMs'),
    startPhaseMs: max('startPhaseMs'),
    peakRssBytes: max('peakRssBytes'),
    cpu: mergeCpu(all),
    ...(all.some((s) => s.embeddedServicesPeakRssBytes !== undefined) && {
      embeddedServicesPeakRssBytes: Math.max(...all.map((s) => s.embeddedServicesPeakRssBytes ?? 0)),
    }),
    interrupted: all.some((s) => s.interrupted),
    // Thresholds are judged again on the merged figures: a p95 of the fleet is not any shard's p95.
    ...verdict(complete && all.every((s) => s.ranClean ?? s.passed), first.summary.spec.thresholds, {
      latency: mergeLatency(all),
      requests: all.map((s) => s.totals).reduce((a, b) => sum(a, b, 'totals')).requests,
    }),
    complete,
    mergedFrom: ordered.map((s) => ({ source: s.source, shard: s.summary.shard })),
  };
}

/** Shards are processes of their own: their CPU adds up (a summary of before the field counts as none). */
function mergeCpu(all: FleetSummary[]): FleetSummary['cpu'] {
  const services = all.filter((s) => s.cpu?.embeddedServicesMs !== undefined);
  return {
    fleetMs: all.reduce((n, s) => n + (s.cpu?.fleetMs ?? 0), 0),
    ...(services.length > 0 && { embeddedServicesMs: services.reduce((n, s) => n + s.cpu!.embeddedServicesMs!, 0) }),
  };
}

/** The fleet's settings without the shard: equal for every shard of one fleet. */
function settings(summary: FleetSummary): string {
  const { shard: _shard, ...rest } = summary.spec;
  // Keys sorted at every level, so the order a file was written in does not matter.
  return JSON.stringify(rest, (_key, value: unknown) =>
    isRecord(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value,
  );
}

/** Numbers added, records merged key by key; a key only one side has is taken as it is. */
function sum<T>(a: T, b: T, path: string): T {
  if (typeof a === 'number' && typeof b === 'number') {
    const key = path.slice(path.lastIndexOf('.') + 1);
    if (!SAME_IN_EVERY_SHARD.has(key)) return (a + b) as T;
    if (a !== b) throw new SummaryMergeError(`${path} is ${a} in one shard and ${b} in another`);
    return a;
  }
  if (isRecord(a) && isRecord(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in a ? sum(a[k], v, `${path}.${k}`) : v;
    return out as T;
  }
  throw new SummaryMergeError(`${path} cannot be added (${JSON.stringify(a)} and ${JSON.stringify(b)})`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function mergeLatency(all: FleetSummary[]): FleetSummary['latency'] {
  const merged = new Map<string, Histogram>();
  for (const s of all) {
    for (const [endpoint, summary] of Object.entries(s.latency) as [string, LatencySummary][]) {
      let h: Histogram;
      try {
        h = Histogram.fromSummary(summary);
      } catch (e) {
        throw new SummaryMergeError(`latency of ${endpoint} (shard ${s.shard}): ${(e as Error).message}`);
      }
      const into = merged.get(endpoint);
      if (into) into.merge(h);
      else merged.set(endpoint, h);
    }
  }
  return Object.fromEntries([...merged].map(([endpoint, h]) => [endpoint, h.mergeableSummary()]));
}

/** Collapsed as FleetStats collapses them (endpoint, status or code, message), the most frequent first, bounded. */
function mergeUnexpected(all: FleetSummary[]): { listed: UnexpectedAnswer[]; notListed: number } {
  const byKey = new Map<string, UnexpectedAnswer>();
  for (const s of all) {
    for (const answer of s.unexpected) {
      const key = `${answer.endpoint}\u0000${answer.status ?? answer.code}\u0000${answer.message}`;
      const seen = byKey.get(key);
      if (seen) seen.count += answer.count;
      else byKey.set(key, { ...answer });
    }
  }
  const sorted = [...byKey.values()].sort((a, b) => b.count - a.count);
  const dropped = sorted.slice(MAX_UNEXPECTED).reduce((n, a) => n + a.count, 0);
  return { listed: sorted.slice(0, MAX_UNEXPECTED), notListed: all.reduce((n, s) => n + s.unexpectedNotListed, dropped) };
}
