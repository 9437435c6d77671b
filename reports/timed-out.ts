// A check that ran out of time (Playwright's `timedOut`) is a finding only when the target was late: an exchange the
// transport gave up on at its deadline (WFMCK_E_TIMEOUT), one still waiting past it, or one that got no answer at all.
// When every answer came within its deadline the time went to the kit or the machine (STYLE habit 15: load is never
// a finding): a kit error, WFMCK_E_SLOW_RUN, whose message lists the answer times. Decided from the exchanges' data.
import type { Exchange } from '../protocol/exchange.ts';
import { DARK } from './outages.ts';

const LISTED_TIMES = 20;

export type TimedOutReading =
  /** The target was late or silent: the check fails on that exchange, as before. */
  | { late: Exchange; line: string }
  /** The target answered in time: the run was slow. */
  | { slowRun: string };

/** What a timed-out check's exchanges say about whose the lost time was; `budget` is Playwright's timeout text. */
export function readTimedOut(exchanges: readonly Exchange[], budget: string): TimedOutReading {
  const late = exchanges.findLast(isLate);
  if (late !== undefined) {
    const why = late.error
      ? `${late.error.code} ${late.error.message}`
      : `no answer after ${ms(late.durationMs)} (deadline ${ms(late.awaiting!.deadlineMs)})`;
    return { late, line: `the target did not answer in time: ${late.method} ${late.url}: ${why}` };
  }
  return { slowRun: slowRunMessage(exchanges, budget) };
}

/** Late beyond its deadline, or never answered. */
export function isLate(x: Exchange): boolean {
  if (x.error !== undefined) return DARK.has(x.error.code);
  return x.awaiting !== undefined && x.durationMs > x.awaiting.deadlineMs;
}

function slowRunMessage(exchanges: readonly Exchange[], budget: string): string {
  const head = `the check ran out of time (${budget}) though the target was never late`;
  const advice = 'the time went to the kit or the machine (load), not the target: run it again, or give the run --timeout-scale 2';
  // An exchange with neither an answer nor a wait (not sent, aborted by the kit) has no answer time to list.
  const timed = exchanges.filter((x) => x.status !== undefined || x.awaiting !== undefined);
  const kits = exchanges.length - timed.length;
  const ended =
    kits > 0
      ? [`${kits} more ended without an answer (${[...new Set(exchanges.flatMap((x) => (x.error ? [x.error.code] : [])))].join(', ')})`]
      : [];
  if (exchanges.length === 0) return `${head}: it sent the target no request\n${advice}`;
  if (timed.length === 0) return [`${head}: none of its exchanges was answered or waiting`, ...ended, advice].join('\n');
  const slowest = timed.reduce((a, b) => (b.durationMs > a.durationMs ? b : a));
  const waiting = timed.filter((x) => x.awaiting !== undefined);
  const times = timed.slice(0, LISTED_TIMES).map((x) => ms(x.durationMs, false));
  const more = timed.length > LISTED_TIMES ? `, ... (${timed.length - LISTED_TIMES} more)` : '';
  return [
    `${head}: ${timed.length} exchange${timed.length === 1 ? '' : 's'}, the slowest ${ms(slowest.durationMs)} (${slowest.method} ${slowest.url})`,
    ...(waiting.length ? [`${waiting.length} still waiting for an answer, within ${waiting.length === 1 ? 'its' : 'their'} deadline`] : []),
    `answer times: ${times.join(', ')}${more} ms`,
    ...ended,
    advice,
  ].join('\n');
}

function ms(n: number, unit = true): string {
  return `${Math.round(n)}${unit ? ' ms' : ''}`;
}
