// One bug, one cause. Failed requirements whose checks failed on the same exchange (the same request got the same
// answer) are one cause naming each; a requirement that blocked others without failing here is a cause of its own.
// Causes are listed by how much they block, most first. Pure: the matrix and the test records in, causes out.
import type { Exchange } from '../protocol/exchange.ts';
import type { RequirementResult, RootCause, TestRecord } from './matrix.ts';

/** A requirement this run found broken: it failed, or it warned on a failed check (a SHOULD, a lenient errata). */
export function failedHere(r: RequirementResult): boolean {
  return r.status === 'fail' || (r.status === 'warn' && r.tests.some((t) => t.status === 'fail'));
}

// An identifier a check mints (a device id, a digest, a uuid, a timestamp): letters and digits, 8 characters or more.
const MINTED = /[A-Za-z0-9_.:+-]{8,}/g;
const minted = (token: string) => /\d/.test(token) && /[A-Za-z]/.test(token);
const anonymous = (text: string) => text.replace(MINTED, (t) => (minted(t) ? '{id}' : t));

/**
 * The exchange a check failed on, as a key: method, URL, answer (status or transport error), what the check expected,
 * and both bodies, with the identifiers each check mints written `{id}`, so two checks that sent the same request and
 * got the same answer share a key whatever their device was called. Headers (signatures, test ids) are left out.
 */
export function exchangeKey(x: Exchange, expected: string | undefined): string {
  const answer = x.status !== undefined ? String(x.status) : (x.error?.code ?? 'no answer');
  return [x.method, anonymous(x.url), answer, expected ?? '', anonymous(x.requestBody ?? ''), anonymous(x.responseBody ?? '')].join('\n');
}

/** Each failed test's keys (the test itself, and its failing exchange), under every requirement it failed (not those it held or cut short). */
function keysByRequirement(records: readonly TestRecord[]): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  for (const r of records) {
    if (r.status !== 'fail') continue;
    const x = r.brokeAt && r.evidence?.find((e) => e.id === r.brokeAt!.exchange);
    // One failed test is one failure, whatever it judged: its requirements share a cause even without evidence.
    const mine = [`test ${r.file}:${r.line} ${r.title}`, ...(x ? [exchangeKey(x, r.brokeAt!.expected)] : [])];
    for (const id of r.requirementIds) {
      if (r.held?.includes(id) || r.cutShort?.ids.includes(id)) continue;
      const set = keys.get(id) ?? new Set<string>();
      keys.set(id, new Set([...set, ...mine]));
    }
  }
  return keys;
}

/** The failed requirements in groups that share a failing exchange (directly or through a third), in report order. */
function sameExchangeGroups(failed: readonly RequirementResult[], records: readonly TestRecord[]): RequirementResult[][] {
  const keys = keysByRequirement(records);
  let groups: { members: RequirementResult[]; keys: Set<string> }[] = [];
  for (const r of failed) {
    const mine = keys.get(r.id) ?? new Set<string>();
    const joined = groups.filter((g) => [...mine].some((k) => g.keys.has(k)));
    const merged = { members: [...joined.flatMap((g) => g.members), r], keys: new Set([...joined.flatMap((g) => [...g.keys]), ...mine]) };
    groups = [...groups.filter((g) => !joined.includes(g)), merged];
  }
  const order = new Map(failed.map((r, i) => [r.id, i]));
  return groups.map((g) => g.members.sort((a, b) => order.get(a.id)! - order.get(b.id)!));
}

/**
 * One bug, one line: every failed requirement (with the others that failed on the same exchange, `alsoFailed`) and
 * every requirement that blocked others without failing here, each with the requirements it blocked; most blocking
 * first, ties in report (catalog) order. A cause that passed its own check (the target answered it and a setup
 * differently) or did not run still shows: its blocked requirements keep the verdict incomplete.
 */
export function rootCauses(results: readonly RequirementResult[], records: readonly TestRecord[] = []): RootCause[] {
  const byId = new Map(results.map((r) => [r.id, r]));
  const order = new Map(results.map((r, i) => [r.id, i]));
  const blocks = new Map<string, string[]>();
  for (const r of results) for (const cause of r.blockedBy ?? []) blocks.set(cause, [...(blocks.get(cause) ?? []), r.id]);
  const blocked = (id: string) => blocks.get(id) ?? [];
  const failed = results.filter(failedHere);
  const causes: RootCause[] = sameExchangeGroups(failed, records).map((group) => {
    // The member that blocks most names the cause; a failure outranks a warning, then report order.
    const [first, ...rest] = [...group].sort(
      (a, b) => blocked(b.id).length - blocked(a.id).length || Number(b.status === 'fail') - Number(a.status === 'fail'),
    );
    const all = [...new Set(group.flatMap((r) => blocked(r.id)))];
    return {
      id: first!.id,
      level: first!.level,
      status: first!.status,
      blocks: all,
      ...(rest.length > 0 && { alsoFailed: rest.map((r) => r.id) }),
    };
  });
  const named = new Set(failed.map((r) => r.id));
  for (const [id, ids] of blocks) {
    if (named.has(id)) continue;
    const cause = byId.get(id);
    const ran = cause !== undefined && cause.tests.some((t) => t.status !== 'skip');
    causes.push({ id, ...(cause && { level: cause.level }), status: cause && ran ? cause.status : 'not-run', blocks: ids });
  }
  const at = (id: string) => order.get(id) ?? Number.MAX_SAFE_INTEGER;
  return causes.sort((a, b) => b.blocks.length - a.blocks.length || at(a.id) - at(b.id) || a.id.localeCompare(b.id));
}

/** The causes a reader sees, in order: the report's, then each failed requirement none of them names (every failure shows). */
export function listedCauses(report: { requirements: readonly RequirementResult[]; rootCauses: readonly RootCause[] }): RootCause[] {
  const named = new Set(report.rootCauses.flatMap((c) => [c.id, ...(c.alsoFailed ?? [])]));
  const unnamed = report.requirements
    .filter((r) => failedHere(r) && !named.has(r.id))
    .map((r): RootCause => ({ id: r.id, level: r.level, status: r.status, blocks: [] }));
  return [...report.rootCauses, ...unnamed];
}

/** A failure cause's replay command (with its --grep): the first failed test of the requirement that names it. */
export function replayOf(r: RequirementResult): string | undefined {
  return r.tests.find((t) => t.status === 'fail' && t.error?.replay !== undefined)?.error?.replay;
}

/** The failed requirements a cause names outside an outage (`dark`), its name first; none for a block whose cause did not fail here. */
export function failuresOf(
  c: RootCause,
  byId: ReadonlyMap<string, RequirementResult>,
  dark: ReadonlySet<string> = new Set(),
): RequirementResult[] {
  return [c.id, ...(c.alsoFailed ?? [])]
    .map((id) => byId.get(id))
    .filter((q): q is RequirementResult => q !== undefined && failedHere(q) && !dark.has(q.id));
}
