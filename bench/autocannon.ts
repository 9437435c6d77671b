// autocannon, the yardstick: the same PUT, body and connection count as the fleet's PUT mode, in this process.
import { createRequire } from 'node:module';
import type { Window } from './wfm-process.ts';

export interface CannonOptions {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  body: string;
  connections: number;
  /** Seconds. */
  duration: number;
  /** Seconds of unmeasured load first (connections opened, JIT warm). */
  warmupSeconds: number;
  /** Requests per second across all connections (autocannon's overallRate); default as fast as answers come. */
  rate?: number;
}

export interface CannonRun {
  /** 2xx answers in the measured part. */
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Measured seconds, as autocannon reports them. */
  seconds: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
}

interface AutocannonResult {
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
  latency: { p50: number; p99: number };
}

type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

// A CommonJS package without types: typed here, at the one place the kit calls it.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** `window` is told when the measured part begins and ends (the WFM's CPU is sampled there). */
export async function cannon(o: CannonOptions, window?: Window): Promise<CannonRun> {
  const common = {
    url: o.url,
    method: o.method,
    headers: o.headers,
    body: o.body,
    connections: o.connections,
    pipelining: 1,
    ...(o.rate !== undefined && { overallRate: o.rate }),
  };
  if (o.warmupSeconds > 0) await autocannon({ ...common, duration: o.warmupSeconds });
  await window?.begin();
  const r = await autocannon({ ...common, duration: o.duration });
  await window?.end();
  return {
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    seconds: r.duration,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
  };
}
