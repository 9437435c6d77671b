// Kit errors by cause: one hook that is not wired fails every check that needs it, and a reader needs the one line
// "hook assignDeployment failed 45 times: <its first stderr line>", not 45. Errors group by the hook that failed
// (WFMCK_E_HOOK) or else by code; the first test's reason stands for the group. Pure: requirements in, groups out.
import type { RequirementResult } from './matrix.ts';

export interface KitErrorCause {
  /** "hook assignDeployment" or a kit error code. */
  what: string;
  /** How many checks ended on it. */
  checks: number;
  /** The requirements in kit error because of it. */
  requirements: string[];
  /** The first check's reason, without the code and hook name the headline already says. */
  reason: string;
}

/** Groups, most checks first. */
export function kitErrorCauses(requirements: readonly RequirementResult[]): KitErrorCause[] {
  const groups = new Map<string, KitErrorCause & { titles: Set<string> }>();
  for (const r of requirements) {
    if (r.status !== 'error') continue;
    for (const t of r.tests) {
      if (t.status !== 'error') continue;
      const what = t.hook !== undefined ? `hook ${t.hook}` : (t.errorCode ?? 'WFMCK_E_INTERNAL');
      let g = groups.get(what);
      if (!g) groups.set(what, (g = { what, checks: 0, requirements: [], reason: reasonOf(t.reason, what), titles: new Set() }));
      if (!g.titles.has(`${t.file}:${t.line}:${t.title}`)) {
        g.titles.add(`${t.file}:${t.line}:${t.title}`);
        g.checks += 1;
      }
      if (!g.requirements.includes(r.id)) g.requirements.push(r.id);
    }
  }
  return [...groups.values()].sort((a, b) => b.checks - a.checks).map(({ titles: _titles, ...g }) => g);
}

/** `WFMCK_E_HOOK: hook retireClient: exited with code 1: ...` -> `exited with code 1: ...` */
function reasonOf(reason: string | undefined, what: string): string {
  const text = (reason ?? 'the kit broke').replace(/^WFMCK_E_[A-Z_]+: /, '');
  return text.startsWith(`${what}: `) ? text.slice(what.length + 2) : text;
}

/** "hook retireClient failed 3 checks: exited with code 1: ..." */
export function kitErrorHeadline(c: KitErrorCause): string {
  const failed = c.what.startsWith('hook ') ? 'failed' : 'broke';
  return `${c.what} ${failed} ${c.checks} check${c.checks === 1 ? '' : 's'}: ${c.reason}`;
}
