// The fixed failure shape of a report: the error text, the fast-check seed and path it carries, one replay command.
// Pure: the reporter hands in Playwright's error text, this module decides what a reader sees.

export interface Failure {
  /** The error text as the test raised it (terminal colours removed, trimmed to MAX_MESSAGE). */
  message: string;
  /** fast-check seed printed by a failing property. */
  seed?: number;
  /** fast-check path of the shrunk counterexample. */
  path?: string;
  /** One shell command that reruns the failing check. */
  replay?: string;
}

export const MAX_MESSAGE = 8_000;

/** Codes a test fails with when the kit broke, not the target (transport codes like WFMCK_E_TIMEOUT are findings). */
export const KIT_ERROR_CODES = ['WFMCK_E_INTERNAL', 'WFMCK_E_HOOK', 'WFMCK_E_ARCHIVE_CONTENT_NOT_KEPT'] as const;

// fixtures/hooks.ts HookError writes "hook <name>: <reason>" without its code in the message.
const HOOK_ERROR = /^(?:\w*Error: )?hook (?:assignDeployment|removeDeployment|retireClient|rotateTrustAnchor|trustClientCertificate): /m;
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** True when an error says the kit itself broke (an internal error or a hook that could not run). */
export function isKitError(text: string): boolean {
  const plain = stripAnsi(text);
  return KIT_ERROR_CODES.some((code) => plain.includes(code)) || HOOK_ERROR.test(plain);
}

/** Seed and path from fast-check's failure text: `{ seed: -7, path: "2:1:0", endOnFailure: true }`. */
export function fastCheckReplay(text: string): { seed?: number; path?: string } {
  const plain = stripAnsi(text);
  const seed = /\bseed: (-?\d+)\b/.exec(plain)?.[1];
  const path = /\bpath: "([0-9:]+)"/.exec(plain)?.[1];
  return { ...(seed !== undefined && { seed: Number(seed) }), ...(path !== undefined && { path }) };
}

/**
 * The command that reruns the tests of one requirement. `--grep` is a regular expression, so an id that is a
 * prefix of another (STATUS-PRECEDENCE, STATUS-PRECEDENCE-REMOVED) gets a guard that stops at the id's end.
 * The path travels as WFMCK_PATH: an env var the run does not know is ignored and the seed alone still replays.
 */
export function replayCommand(id: string, seed: number | undefined, path: string | undefined, allIds: readonly string[] = []): string {
  const isPrefix = allIds.some((other) => other !== id && other.startsWith(id));
  const grep = isPrefix ? `${id}(?![-A-Z0-9])` : id;
  const env = path !== undefined ? `WFMCK_PATH=${path} ` : '';
  const seedFlag = seed !== undefined ? ` --seed ${seed}` : '';
  return `${env}npx wfmck run${seedFlag} --grep '${grep}'`;
}

/** The failure of one test: the property's own seed wins over the run's seed, since that is what replays it. */
export function failureOf(text: string, requirementId: string | undefined, runSeed: number | undefined, allIds: readonly string[] = []): Failure {
  const plain = stripAnsi(text).trim();
  const message = plain.length > MAX_MESSAGE ? `${plain.slice(0, MAX_MESSAGE)}\n... (${plain.length - MAX_MESSAGE} more characters)` : plain;
  const fc = fastCheckReplay(plain);
  const seed = fc.seed ?? runSeed;
  return {
    message,
    ...fc,
    ...(requirementId !== undefined && { replay: replayCommand(requirementId, seed, fc.path, allIds) }),
  };
}
