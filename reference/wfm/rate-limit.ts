// A per-client request budget for the reference WFM: past it, 429 with Retry-After (P10: clients honour it). It
// guards polling of the desired state only, in fixed windows: enough to make the 429 rules observable on any
// machine, loaded or not, without touching the checks and fleets that make a few requests per device.
export interface RateLimit {
  /** Requests one client may make per window on the guarded paths. */
  requests: number;
  windowMs: number;
  /** GET on these exact paths is counted; nothing else is. */
  paths: readonly string[];
}

export class RequestBudget {
  private windowStart = 0;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether a request is counted at all. */
  guards(method: string, path: string): boolean {
    return method === 'GET' && this.limit.paths.includes(path);
  }

  /** Seconds to wait when `key` is over its budget, else undefined (and the request is counted). */
  take(key: string): number | undefined {
    const t = this.now();
    if (t - this.windowStart >= this.limit.windowMs) {
      this.windowStart = t;
      this.counts.clear();
    }
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n > this.limit.requests ? Math.max(1, Math.ceil((this.windowStart + this.limit.windowMs - t) / 1000)) : undefined;
  }
}
