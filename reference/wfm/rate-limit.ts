// A per-client request budget for the reference WFM: past it, 429 with Retry-After (P10: clients honour it). Fixed
// one-second windows: crude, but enough to make the 429 rules observable without hurting any check or fleet.
export interface RateLimit {
  /** Requests one client may make per second. */
  perSecond: number;
}

export class RequestBudget {
  private windowStart = 0;
  private readonly counts = new Map<string, number>();

  constructor(private readonly limit: RateLimit, private readonly now: () => number = Date.now) {}

  /** Seconds to wait when `key` is over its budget, else undefined (and the request is counted). */
  take(key: string): number | undefined {
    const t = this.now();
    if (t - this.windowStart >= 1000) {
      this.windowStart = t;
      this.counts.clear();
    }
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n > this.limit.perSecond ? Math.max(1, Math.ceil((this.windowStart + 1000 - t) / 1000)) : undefined;
  }
}
