// Live progress of a fleet run: one line redrawn with `\r` on a terminal (at most 4 times a second), or a plain
// line every 5 s when the output is a file or a pipe (CI logs).
import type { LatencySummary } from './histogram.ts';
import type { ClientCounts } from './stats.ts';

export interface FleetProgress {
  elapsedMs: number;
  /** Top-level devices of this shard. */
  clientsTotal: number;
  clients: ClientCounts;
  requests: number;
  /** Responses ≥ 400 by status and transport errors by code. */
  errors: Record<string, number>;
}

export interface ProgressWriter {
  update(p: FleetProgress): void;
  /** The last state, always printed, then a newline on a terminal. */
  done(p: FleetProgress): void;
}

export function progressLine(p: FleetProgress, requestsPerSecond: number): string {
  const errors = Object.entries(p.errors)
    .sort(([, a], [, b]) => b - a)
    .slice(0, 4)
    .map(([code, n]) => `${code}×${n}`)
    .join(' ');
  const c = p.clients;
  return (
    `${(p.elapsedMs / 1000).toFixed(1)}s onboarded ${c.onboarded}/${p.clientsTotal} reporting ${c.reporting} failed ${c.failed}` +
    ` | ${Math.round(requestsPerSecond)} req/s | errors ${errors || 'none'}`
  );
}

export function progressWriter(
  out: { write(s: string): unknown; isTTY?: boolean },
  clock: () => number = () => performance.now(),
): ProgressWriter {
  const tty = out.isTTY === true;
  const every = tty ? 250 : 5000;
  let lastAt = -Infinity;
  let last = { at: clock(), requests: 0 };
  let width = 0;
  const render = (p: FleetProgress) => {
    const now = clock();
    const rate = now > last.at ? ((p.requests - last.requests) * 1000) / (now - last.at) : 0;
    last = { at: now, requests: p.requests };
    lastAt = now;
    const line = progressLine(p, rate);
    if (tty) {
      out.write(`\r${line.padEnd(width)}`);
      width = line.length;
    } else out.write(`${line}\n`);
  };
  return {
    update(p) {
      if (clock() - lastAt >= every) render(p);
    },
    done(p) {
      render(p);
      if (tty) out.write('\n');
    },
  };
}

/** The end of every fleet: one line per endpoint with its count and p50/p95/p99, slowest p95 first. */
export function latencyLines(latency: Partial<Record<string, LatencySummary>>): string[] {
  const rows = Object.entries(latency).flatMap(([e, s]) => (s && s.count > 0 ? [[e, s] as const] : []));
  rows.sort((a, b) => b[1].p95Ms - a[1].p95Ms);
  const width = Math.max(0, ...rows.map(([e]) => e.length));
  const ms = (n: number) => `${n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n)} ms`;
  return rows.map(
    ([e, s]) => `${e.padEnd(width)}  ${String(s.count).padStart(8)} requests  p50 ${ms(s.p50Ms)}  p95 ${ms(s.p95Ms)}  p99 ${ms(s.p99Ms)}`,
  );
}
