// An outage the run noticed itself (cli/outage-watch.ts probes the named targets; they stopped answering): the run
// stopped there, and the report says so once. Each check it cut short on no answer from a dark origin, and each check
// it kept from running, is blocked by it: none is a finding against the target, and the run gives no verdict.
import type { RequirementResult, TestRecord } from './matrix.ts';
import type { Exchange } from '../protocol/exchange.ts';
import { DARK, type Outage } from './outages.ts';
import { SERVER_IDENTITY_REQUIREMENT } from '../run/contract/outcomes.ts';

/** What `blockedBy` names for a check the outage blocked: no requirement, so the report lists it under `outages`. */
export const OUTAGE_CAUSE = 'OUTAGE';
/** Written in the out folder by the watcher when it declares an outage; read by whoever writes the report. */
export const OUTAGE_FILE = 'outage.json';
/** How many answered exchanges before the outage, and unanswered ones after it, its evidence keeps. */
const EVIDENCE_EACH = 3;

export interface DeclaredOutage {
  /** The first target whose probes all failed ("WFM", "registry", ...) and its origin. */
  target: string;
  origin: string;
  /** Every named origin dark when the outage was declared (one process often serves several). */
  origins: string[];
  /** The last probe that got an answer (absent when none did), the first that got none, and the declaration. */
  lastAnswerAt?: string;
  firstFailureAt: string;
  declaredAt: string;
  /** How many checks had ended when the first probe failed. */
  afterCheck: number;
  /** The failed probes, one line each. */
  probes: string[];
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** When an exchange that got no answer went dark (ms): a broken connection when it broke, a timeout when it began. */
function wentDarkAt(x: Exchange): number {
  const start = Date.parse(x.startedAt);
  return x.error?.code === 'WFMCK_E_CONNECTION' ? start + x.durationMs : start;
}

/**
 * The earliest moment a dark exchange shows the target dark: its start when it began after the last answered probe,
 * else (in flight when the target died; only a broken connection is dark then) when it broke, its wentDarkAt.
 */
function darkSince(x: Exchange, o: DeclaredOutage): string {
  return o.lastAnswerAt !== undefined && x.startedAt < o.lastAnswerAt ? new Date(wentDarkAt(x)).toISOString() : x.startedAt;
}

/** Went dark after the last answered probe (or none answered). */
function afterLastAnswer(x: Exchange, o: DeclaredOutage): boolean {
  return o.lastAnswerAt === undefined || !(wentDarkAt(x) < Date.parse(o.lastAnswerAt));
}

/**
 * An exchange that got no answer from a dark origin since the target last answered a probe. A connection that broke
 * counts from when it broke: a request in flight when the target died started while it still answered. A timeout
 * counts from its start: a request the target left waiting while it answered probes is a hang, the target's own.
 */
export function darkAfter(x: Exchange | undefined, o: DeclaredOutage): x is Exchange {
  if (!x?.error || !DARK.has(x.error.code)) return false;
  if (!afterLastAnswer(x, o)) return false;
  const origin = originOf(x.url);
  return origin !== undefined && o.origins.includes(origin);
}

/** Checks cut short on no answer from a dark origin, and checks never run (interrupted), become blocked by the outage. */
export function blockByOutage(records: readonly TestRecord[], o: DeclaredOutage): TestRecord[] {
  return records.map((r): TestRecord => {
    const notRun = r.status === 'skip' && r.skipCause === 'interrupted';
    const last = r.evidence?.at(-1);
    const cut = (r.status === 'fail' || r.status === 'blocked') && darkAfter(last, o);
    if (!notRun && !cut) return r;
    const { skipCause: _skip, cutShort: _cutShort, ...rest } = r;
    const how = notRun ? 'not run' : `it ended on no answer (${last!.error!.code})`;
    return {
      ...rest,
      status: 'blocked',
      blockedBy: OUTAGE_CAUSE,
      reason: `blocked by the outage: ${o.target} ${o.origin} stopped answering; ${how}`,
    };
  });
}

/** The report's one outage cause: when it began, what it blocked, and the exchanges on either side of it. */
export function declaredOutage(o: DeclaredOutage, records: readonly TestRecord[], requirements: readonly RequirementResult[]): Outage {
  const exchanges = records
    .flatMap((r) => r.evidence ?? [])
    .filter((x) => o.origins.includes(originOf(x.url) ?? ''))
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const dark = exchanges.filter((x) => darkAfter(x, o));
  const since = [o.firstFailureAt, ...dark.map((x) => darkSince(x, o))].sort((a, b) => Date.parse(a) - Date.parse(b))[0]!;
  const answered = exchanges.filter((x) => x.status !== undefined && x.startedAt < since);
  const blocked = blockByOutage(records, o).filter((r, i) => r.blockedBy === OUTAGE_CAUSE && records[i]!.blockedBy !== OUTAGE_CAUSE);
  return {
    origin: o.origin,
    since,
    codes: [...new Set(dark.map((x) => x.error!.code))].sort(),
    requirements: requirements.filter((r) => r.blockedBy?.includes(OUTAGE_CAUSE)).map((r) => r.id),
    stopped: { ...o, checks: records.length, notRun: blocked.length },
    evidence: [...answered.slice(-EVIDENCE_EACH), ...dark.slice(0, EVIDENCE_EACH)],
  };
}

/** "the WFM at <origin> stopped answering at 12:03:04 after check 58 of 239; 181 checks not run": the run's one line. */
export function stoppedLine(o: Outage): string {
  const s = o.stopped;
  if (s === undefined) return `${o.origin} stopped answering at ${o.since}`;
  const at = new Date(o.since).toTimeString().slice(0, 8);
  const also = s.origins.filter((x) => x !== o.origin);
  return (
    `the ${s.target} at ${o.origin} stopped answering at ${at} after check ${s.afterCheck} of ${s.checks}` +
    `${also.length > 0 ? ` (and ${also.join(', ')})` : ''}; ${s.notRun} check${s.notRun === 1 ? '' : 's'} not run or cut short, blocked by it; the run stopped`
  );
}

/** The outage as one cause, for the console and the page: what went dark, and how many requirements it concerns. */
export function outageHeadline(o: Outage): string {
  const n = o.requirements.length;
  return o.stopped
    ? `${stoppedLine(o)}: ${n} requirement${n === 1 ? '' : 's'} blocked by it`
    : `${o.origin} stopped answering at ${o.since} (${o.codes.join(', ')}): ${n} requirements failed on no answer`;
}

/**
 * A failed check whose last exchange the kit's client refused for the server's SPIFFE ID never reached the target's
 * answer: blocked by SERVER_IDENTITY_REQUIREMENT, as fixtures/outcome.ts does for the errors it sees (this catches
 * those a wrapper hid from it, a property's, say). Its own check stays a failure.
 */
export function blockByServerIdentity(records: readonly TestRecord[]): TestRecord[] {
  return records.map((r): TestRecord => {
    const last = r.evidence?.at(-1);
    if (r.status !== 'fail' || last?.error?.code !== 'WFMCK_E_SERVER_IDENTITY' || r.requirementIds.includes(SERVER_IDENTITY_REQUIREMENT))
      return r;
    const { cutShort: _cutShort, held: _held, ...rest } = r;
    return {
      ...rest,
      status: 'blocked',
      blockedBy: SERVER_IDENTITY_REQUIREMENT,
      reason: `blocked by ${SERVER_IDENTITY_REQUIREMENT}: ${last.error.message}`,
    };
  });
}
