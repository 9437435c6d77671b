// A target that stops answering mid-run is noticed in seconds, not after every later check has failed on it: while the
// checks run, `wfmck run` connects to each named target every couple of seconds (TCP, then TLS where https, as the
// pre-flight does), and after a few failed probes in a row declares an outage: it writes it to the out folder (the
// reporter blocks what it cut short or kept from running) and tells the caller, which stops the run.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../run/options/config.ts';
import { connectionProblem, targetOrigins } from './preflight.ts';
import { readRecords } from '../reports/write-report.ts';
import { OUTAGE_FILE, type DeclaredOutage } from '../reports/outage-declared.ts';

export interface WatchTiming {
  /** Between the end of one round of probes and the start of the next. */
  intervalMs: number;
  /** Each probe's own deadline: a target that takes the connection but never completes the handshake is dark too. */
  timeoutMs: number;
  /** Failed probes in a row that make an outage (a few seconds: one slow handshake on a loaded machine is not one). */
  failures: number;
}

export const WATCH_TIMING: WatchTiming = { intervalMs: 1_000, timeoutMs: 3_000, failures: 3 };

export type Probe = (url: URL) => Promise<string | undefined>;

export interface Watch {
  /** The outage, once declared. */
  readonly outage: DeclaredOutage | undefined;
  stop(): void;
}

interface Target {
  what: string;
  url: URL;
  lastAnswerAt?: string;
  failed: { at: string; why: string }[];
  /** Checks ended when its first probe of the current run of failures failed. */
  afterCheck: number;
}

/** Checks ended so far: the records the reporter streamed. */
function checksEnded(outDir: string): number {
  return readRecords(outDir).length;
}

/** Starts probing `config`'s named targets; `onOutage` runs once, when one of them stays dark. */
export function watchTargets(
  config: Pick<Config, 'targets' | 'tls' | 'out'>,
  onOutage: (o: DeclaredOutage) => void,
  timing: WatchTiming = WATCH_TIMING,
  probe?: Probe,
): Watch {
  // A reused out folder must not carry an earlier run's outage into this report.
  rmSync(join(config.out, OUTAGE_FILE), { force: true });
  const ca = config.tls.caFiles.map((f) => readFileSync(f, 'utf8'));
  const check: Probe = probe ?? ((url) => connectionProblem(url, ca, timing.timeoutMs));
  const targets: Target[] = targetOrigins(config as Config).map(([what, url]) => ({ what, url, failed: [], afterCheck: 0 }));
  let stopped = false;
  let outage: DeclaredOutage | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function round(): Promise<void> {
    await Promise.all(
      targets.map(async (t) => {
        const at = new Date().toISOString();
        const why = await check(t.url).catch((e: unknown) => String(e));
        if (why === undefined) {
          t.lastAnswerAt = at;
          t.failed = [];
          return;
        }
        if (t.failed.length === 0) t.afterCheck = checksEnded(config.out);
        t.failed.push({ at, why });
      }),
    );
    if (stopped) return;
    const dark = targets.find((t) => t.failed.length >= timing.failures);
    if (dark === undefined) return void (timer = setTimeout(() => void round(), timing.intervalMs).unref());
    outage = {
      target: dark.what,
      origin: dark.url.origin,
      origins: targets.filter((t) => t.failed.length > 0).map((t) => t.url.origin),
      ...(dark.lastAnswerAt !== undefined && { lastAnswerAt: dark.lastAnswerAt }),
      firstFailureAt: dark.failed[0]!.at,
      declaredAt: new Date().toISOString(),
      afterCheck: dark.afterCheck,
      probes: targets.flatMap((t) => t.failed.map((f) => `${f.at} ${t.what} ${t.url.origin}: ${f.why}`)),
    };
    mkdirSync(config.out, { recursive: true });
    writeFileSync(join(config.out, OUTAGE_FILE), `${JSON.stringify(outage, null, 2)}\n`);
    onOutage(outage);
  }

  timer = setTimeout(() => void round(), timing.intervalMs).unref();
  return {
    get outage() {
      return outage;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
