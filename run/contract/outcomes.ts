// How a check ended, as data (STYLE habit 11). A check is `pass`, `fail` (the target broke this requirement), `blocked`
// (a precondition failed: another requirement's check broke it), `skip` with a typed cause, `untestable` (catalog
// reason) or `error` (the kit or its configuration broke; never counted against the target). Tests raise the non-pass
// outcomes through typed helpers (fixtures/outcome.ts), which leave one annotation the reporters read: nothing parses
// message text to decide what happened.

/** Why a check or requirement was not judged, as a reader (and a CI gate) needs to tell them apart. */
export const SKIP_CAUSES = [
  /** Needs a hook or a setting this run does not give (named in the detail). */
  'disabled',
  /** The target declares an optional feature absent; the answer that says so is kept as evidence. */
  'unsupported',
  /** Another persona's run judges it (a device client's duty in a run against the services, and the reverse). */
  'other-persona',
  /** It binds another edition of the standard than this run's (P10). */
  'other-edition',
  /** The component under test does not claim the area it belongs to (claims). */
  'not-claimed',
  /** Attended mode: no client under test came for this check. */
  'no-client',
  /** The run was interrupted before this check ran or finished. */
  'interrupted',
] as const;
export type SkipCause = (typeof SKIP_CAUSES)[number];

/** Stable codes of kit errors (STYLE: undici-style `UND_ERR_*`); a transport failure of the target is a finding, not one of these. */
export const KIT_ERROR_CODES = [
  /** A configured hook could not run, failed, or answered something that is not its contract's JSON. */
  'WFMCK_E_HOOK',
  /** The run's configuration or material is unusable (a CA that does not parse, a context without what a check needs). */
  'WFMCK_E_CONFIG',
  /** A bug of the kit. */
  'WFMCK_E_INTERNAL',
  /** The archive reader dropped bytes a rule needs (a kit limit, not a finding). */
  'WFMCK_E_ARCHIVE_CONTENT_NOT_KEPT',
  /** The test itself threw something that is not a finding (a TypeError in the kit's own code). */
  'WFMCK_E_TEST',
  /**
   * The check ran out of time (Playwright's test timeout) while the target answered every request within its deadline:
   * the kit or a loaded machine was slow, not the target. The message lists the answer times (reports/timed-out.ts).
   */
  'WFMCK_E_SLOW_RUN',
] as const;
export type KitErrorCode = (typeof KIT_ERROR_CODES)[number];

export function isKitErrorCode(code: unknown): code is KitErrorCode {
  return typeof code === 'string' && (KIT_ERROR_CODES as readonly string[]).includes(code);
}

/**
 * P10: the requirement a WFM breaks when every client must refuse its SVID (the transport's WFMCK_E_SERVER_IDENTITY):
 * one finding, and every other check it kept from reaching the target is blocked by it.
 */
export const SERVER_IDENTITY_REQUIREMENT = 'MIAF-SERVER-SVID';

/** What a test's typed helper recorded about its end. */
export type OutcomeNote =
  | { outcome: 'blocked'; cause: string; message: string }
  | { outcome: 'skip'; cause: SkipCause; detail: string }
  | { outcome: 'error'; code: KitErrorCode; message: string; hook?: string };

/** The annotation type of an OutcomeNote (its description is the note as JSON). */
export const OUTCOME_ANNOTATION = 'wfmck-outcome';

export function outcomeAnnotation(note: OutcomeNote): { type: string; description: string } {
  return { type: OUTCOME_ANNOTATION, description: JSON.stringify(note) };
}

/** The notes among a test's annotations, in order; anything malformed is left out. */
export function outcomeNotes(annotations: readonly { type: string; description?: string }[]): OutcomeNote[] {
  const notes: OutcomeNote[] = [];
  for (const a of annotations) {
    if (a.type !== OUTCOME_ANNOTATION || a.description === undefined) continue;
    try {
      const n = JSON.parse(a.description) as OutcomeNote;
      if (n.outcome === 'blocked' && typeof n.cause === 'string' && typeof n.message === 'string') notes.push(n);
      else if (n.outcome === 'skip' && (SKIP_CAUSES as readonly string[]).includes(n.cause) && typeof n.detail === 'string') notes.push(n);
      else if (
        n.outcome === 'error' &&
        isKitErrorCode(n.code) &&
        typeof n.message === 'string' &&
        (n.hook === undefined || typeof n.hook === 'string')
      )
        notes.push(n);
    } catch {
      // Not ours.
    }
  }
  return notes;
}

// A kit error outranks a block (the kit broke, whatever else happened), a block outranks a skip that came after it.
const NOTE_RANK: Record<OutcomeNote['outcome'], number> = { skip: 0, blocked: 1, error: 2 };

/** The note that decides a test's outcome: the first of the highest rank. */
export function decidingNote(notes: readonly OutcomeNote[]): OutcomeNote | undefined {
  return notes.reduce<OutcomeNote | undefined>(
    (best, n) => (best === undefined || NOTE_RANK[n.outcome] > NOTE_RANK[best.outcome] ? n : best),
    undefined,
  );
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?(?:-----END \1-----|$)/g;
const BEARER = /\b(bearer\s+)[^\s"',}]+/gi;
const SECRET_ASSIGNMENT =
  /\b((?:token|password|passwd|secret|apikey|api-key|api_key|authorization)"?\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s"',}]+)/gi;
// A JWT or a long base64/hex run that is not inside a word: how keys and tokens look when a hook echoes them.
const TOKEN_LIKE =
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*|(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{64,}={0,2}(?![A-Za-z0-9+/=_-])/g;

/**
 * Text a hook or a target wrote, made fit for a report: PEM blocks (keys above all), bearer tokens, credentials after
 * `token=`/`password:` and long base64 or hex runs are replaced by a marker. Certificates go too: a report never
 * needs a hook's copy of one.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(PEM_BLOCK, (_m, label: string) => `[${label.toLowerCase()} removed]`)
    .replace(BEARER, '$1[removed]')
    .replace(SECRET_ASSIGNMENT, '$1[removed]')
    .replace(TOKEN_LIKE, '[token removed]');
}

/** The annotation expectEach (fixtures/expect-each.ts) writes for each requirement whose own check held. */
export const HELD_ANNOTATION = 'req-held';
/** The annotation judgeAs (fixtures/expect-each.ts) writes for a requirement whose own check failed in a multi-id test. */
export const FAILED_ANNOTATION = 'req-failed';
