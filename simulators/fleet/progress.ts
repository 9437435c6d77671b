// Live progress of a fleet run: one line redrawn with `\r` on a terminal (at most 4 times a second), or a plain
// line every 5 s when the output is a file or a pipe (CI logs).
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
