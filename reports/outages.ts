// A target that stops answering mid-run fails every later check on a refused or timed-out connection. Those are one
// finding, not sixty: an outage groups them by origin, from the first such failure on, so the console and the page
// say "the WFM stopped answering at <time>" once. A single endpoint that hangs (one path) stays its own findings.
import type { RequirementResult } from './matrix.ts';
import type { Exchange } from '../protocol/exchange.ts';
import type { DeclaredOutage } from './outage-declared.ts';

/** Transport codes that mean no answer at all: refused, reset (UND_ERR_SOCKET is classified here too) or timed out. */
export const DARK = new Set(['WFMCK_E_CONNECTION', 'WFMCK_E_TIMEOUT']);
/** An outage needs this many failed requirements, over this many distinct paths of the origin. */
const MIN_REQUIREMENTS = 5;
const MIN_PATHS = 3;

export interface Outage {
  origin: string;
  /** When the first of its failures started (the exchange that got no answer). */
  since: string;
  /** The transport codes seen. */
  codes: string[];
  /**
   * The failed requirements whose check ended on no answer from the origin; of an outage declared during the run,
   * the requirements it blocked (their checks ended on no answer after it began, or never ran).
   */
  requirements: string[];
  /** Declared during the run (the kit's probes of the target failed): the run stopped there, without a verdict. */
  stopped?: DeclaredOutage & {
    /** The run's checks, and those the outage blocked (cut short on no answer, or never run). */
    checks: number;
    notRun: number;
  };
  /** The last exchanges with the origin that got an answer before it went dark, then the first that got none. */
  evidence?: Exchange[];
}

/** The exchange a failed requirement's check ended on, when it got no answer at all. */
function darkEnd(r: RequirementResult): { origin: string; path: string; at: string; code: string } | undefined {
  if (r.status !== 'fail') return undefined;
  const last = r.evidence?.at(-1);
  if (!last?.error || !DARK.has(last.error.code)) return undefined;
  try {
    const url = new URL(last.url);
    return { origin: url.origin, path: url.pathname, at: last.startedAt, code: last.error.code };
  } catch {
    return undefined;
  }
}

export function outages(results: readonly RequirementResult[]): Outage[] {
  const byOrigin = new Map<string, { ids: string[]; paths: Set<string>; at: string[]; codes: Set<string> }>();
  for (const r of results) {
    const end = darkEnd(r);
    if (!end) continue;
    let o = byOrigin.get(end.origin);
    if (!o) byOrigin.set(end.origin, (o = { ids: [], paths: new Set(), at: [], codes: new Set() }));
    o.ids.push(r.id);
    o.paths.add(end.path);
    o.at.push(end.at);
    o.codes.add(end.code);
  }
  return [...byOrigin.entries()]
    .filter(([, o]) => o.ids.length >= MIN_REQUIREMENTS && o.paths.size >= MIN_PATHS)
    .map(([origin, o]) => ({ origin, since: [...o.at].sort()[0]!, codes: [...o.codes].sort(), requirements: o.ids }));
}
