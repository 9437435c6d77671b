// A latency histogram of fixed size: logarithmic buckets 4% wide from 10 µs to 10 min, so memory stays O(1)
// however many requests a fleet makes, and every percentile lands in the bucket of the exact one.

const MIN_MS = 0.01;
const GROWTH = 1.04;
const MAX_MS = 600_000;
/** Bucket 0 holds values below MIN_MS; the last one everything from its lower bound up. */
export const BUCKETS = 2 + Math.ceil(Math.log(MAX_MS / MIN_MS) / Math.log(GROWTH));
const LOG_GROWTH = Math.log(GROWTH);

export function bucketOf(ms: number): number {
  if (!(ms >= MIN_MS)) return 0;
  return Math.min(BUCKETS - 1, 1 + Math.floor(Math.log(ms / MIN_MS) / LOG_GROWTH));
}

/** [lower, upper) of a bucket in ms. */
export function bucketBounds(b: number): [number, number] {
  if (b === 0) return [0, MIN_MS];
  return [MIN_MS * GROWTH ** (b - 1), b === BUCKETS - 1 ? Infinity : MIN_MS * GROWTH ** b];
}

export interface LatencySummary {
  count: number;
  minMs: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** In fleet-summary.json, so shards merge exactly (`wfmck merge`): the sum, and [bucket, count] of every non-empty bucket. */
  sumMs?: number;
  buckets?: [number, number][];
}

export class Histogram {
  private readonly counts = new Uint32Array(BUCKETS);
  count = 0;
  private sum = 0;
  private min = Infinity;
  private max = -Infinity;

  /** Empty again (a window of interval figures starts over). */
  reset(): void {
    this.counts.fill(0);
    this.count = 0;
    this.sum = 0;
    this.min = Infinity;
    this.max = -Infinity;
  }

  record(ms: number): void {
    const value = Number.isFinite(ms) && ms > 0 ? ms : 0;
    this.counts[bucketOf(value)]!++;
    this.count++;
    this.sum += value;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
  }

  /**
   * Nearest-rank percentile (p in (0, 1]): the bucket holding the ceil(p*n)-th smallest value, reported as its
   * geometric middle clamped to the observed min and max (so a one-valued histogram answers that value).
   */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.max(1, Math.ceil(p * this.count));
    let seen = 0;
    for (let b = 0; b < BUCKETS; b++) {
      seen += this.counts[b]!;
      if (seen >= rank) {
        const [lo, hi] = bucketBounds(b);
        const middle = b === 0 ? lo : Number.isFinite(hi) ? Math.sqrt(lo * hi) : lo;
        return Math.min(this.max, Math.max(this.min, middle));
      }
    }
    return this.max;
  }

  /** Adds every value `other` recorded: the same histogram as if this one had recorded them too. */
  merge(other: Histogram): void {
    for (let b = 0; b < BUCKETS; b++) this.counts[b]! += other.counts[b]!;
    this.count += other.count;
    this.sum += other.sum;
    this.min = Math.min(this.min, other.min);
    this.max = Math.max(this.max, other.max);
  }

  /** The summary with what it takes to merge it again (`sumMs`, `buckets`). */
  mergeableSummary(): LatencySummary {
    const buckets: [number, number][] = [];
    this.counts.forEach((n, b) => n > 0 && buckets.push([b, n]));
    return { ...this.summary(), sumMs: Math.round(this.sum * 1000) / 1000, buckets };
  }

  /** Back from a mergeable summary; min and max come back as rounded there (to the microsecond). */
  static fromSummary(s: LatencySummary): Histogram {
    if (!s.buckets || s.sumMs === undefined)
      throw new RangeError('latency summary without buckets: written by a wfmck too old to merge it exactly');
    const h = new Histogram();
    for (const [b, n] of s.buckets) {
      if (!Number.isInteger(b) || b < 0 || b >= BUCKETS || !Number.isInteger(n) || n < 0)
        throw new RangeError(`latency bucket [${b}, ${n}] is not one of this histogram's`);
      h.counts[b]! += n;
      h.count += n;
    }
    if (h.count !== s.count) throw new RangeError(`latency buckets hold ${h.count} values, the summary says ${s.count}`);
    h.sum = s.sumMs;
    if (h.count > 0) [h.min, h.max] = [s.minMs, s.maxMs];
    return h;
  }

  summary(): LatencySummary {
    const round = (ms: number) => Math.round(ms * 1000) / 1000;
    return {
      count: this.count,
      minMs: round(this.count ? this.min : 0),
      meanMs: round(this.count ? this.sum / this.count : 0),
      p50Ms: round(this.percentile(0.5)),
      p95Ms: round(this.percentile(0.95)),
      p99Ms: round(this.percentile(0.99)),
      maxMs: round(this.count ? this.max : 0),
    };
  }
}
