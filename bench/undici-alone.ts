// undici alone, the HTTP client the kit's transport is built on: the same PUT, body and connections as autocannon and
// the fleet's PUT mode, each connection a loop of undici's own request() with its answer read, and no kit code. What
// the fleet costs beyond it is the kit's; what it costs beyond autocannon is undici's.
import { Agent } from 'undici';
import { measuredPart, type Window } from './wfm-process.ts';

export interface UndiciAloneOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  /** Trust anchors of the target. */
  ca: string;
  warmupMs: number;
  durationMs: number;
}

export interface UndiciAloneRun {
  ok: number;
  failed: number;
  seconds: number;
}

export async function undiciAlone(o: UndiciAloneOptions, window?: Window): Promise<UndiciAloneRun> {
  const { origin, pathname } = new URL(o.url);
  const agent = new Agent({ pipelining: 1, connections: o.connections, connect: { ca: o.ca } });
  const run: UndiciAloneRun = { ok: 0, failed: 0, seconds: 0 };
  let counting = false;
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      let status: number | undefined;
      try {
        const res = await agent.request({ origin, path: pathname, method: 'PUT', headers: o.headers, body: o.body });
        await res.body.text();
        status = res.statusCode;
      } catch {
        status = undefined;
      }
      if (!counting) continue;
      if (status !== undefined && status >= 200 && status < 300) run.ok++;
      else run.failed++;
    }
  };
  const loops = Array.from({ length: o.connections }, loop);
  try {
    run.seconds = await measuredPart(o, window, (on) => (counting = on));
  } finally {
    stopped = true;
    await Promise.all(loops);
    await agent.close();
  }
  return run;
}
