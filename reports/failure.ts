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

const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * The one line a collapsed report row shows for a failure: what the check said, then Expected and Received when the
 * matcher printed them (display only: what happened is decided by the typed outcome, never by this text).
 */
export function reasonLine(message: string): string {
  let lines = stripAnsi(message)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  // A fast-check property: what failed is the error it got, after the counterexample.
  const got = lines.findIndex((l) => l.startsWith('Got error: '));
  if (got >= 0) lines = [lines[got]!.slice('Got error: '.length), ...lines.slice(got + 1)];
  const first = (lines[0] ?? '').replace(/^(?:\w*Error: )+/, '');
  // A matcher's own header says nothing a reader needs when Expected and Received follow.
  const head = /^expect\(/.test(first) ? '' : first;
  const pick = (label: string) => lines.find((l) => l.startsWith(`${label}:`));
  const detail = [pick('Expected'), pick('Received')].filter((l): l is string => l !== undefined && !head.includes(l));
  const line = [head || (detail.length ? '' : first), ...detail].filter((l) => l !== '').join(' · ');
  return line.length > 400 ? `${line.slice(0, 399)}…` : line;
}

/** Seed and path from fast-check's failure text: `{ seed: -7, path: "2:1:0", endOnFailure: true }`. */
export function fastCheckReplay(text: string): { seed?: number; path?: string } {
  const plain = stripAnsi(text);
  const seed = /\bseed: (-?\d+)\b/.exec(plain)?.[1];
  const path = /\bpath: "([0-9:]+)"/.exec(plain)?.[1];
  return { ...(seed !== undefined && { seed: Number(seed) }), ...(path !== undefined && { path }) };
}

/**
 * The command that reruns the tests of one requirement against the same target: `--config` names the run's
 * replay.yaml (its whole resolved configuration). `--grep` is a regular expression, so an id that is a prefix of
 * another (STATUS-PRECEDENCE, STATUS-PRECEDENCE-REMOVED) gets a guard that stops at the id's end. A property's path
 * rides as --path, so fast-check replays the shrunk counterexample at once.
 */
export function replayCommand(
  id: string,
  seed: number | undefined,
  path: string | undefined,
  allIds: readonly string[] = [],
  config?: string,
): string {
  const isPrefix = allIds.some((other) => other !== id && other.startsWith(id));
  const grep = isPrefix ? `${id}(?![-A-Z0-9])` : id;
  const configFlag = config !== undefined ? ` --config ${shellWord(config)}` : '';
  const seedFlag = seed !== undefined ? ` --seed ${seed}` : '';
  const pathFlag = path !== undefined ? ` --path ${path}` : '';
  return `npx wfmck run${configFlag}${seedFlag}${pathFlag} --grep '${grep}'`;
}

function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The failure of one test: the property's own seed wins over the run's seed, since that is what replays it. */
export function failureOf(
  text: string,
  requirementId: string | undefined,
  runSeed: number | undefined,
  allIds: readonly string[] = [],
  replayConfig?: string,
): Failure {
  const plain = stripAnsi(text).trim();
  const message =
    plain.length > MAX_MESSAGE ? `${plain.slice(0, MAX_MESSAGE)}\n... (${plain.length - MAX_MESSAGE} more characters)` : plain;
  const fc = fastCheckReplay(plain);
  const seed = fc.seed ?? runSeed;
  return {
    message,
    ...fc,
    ...(requirementId !== undefined && { replay: replayCommand(requirementId, seed, fc.path, allIds, replayConfig) }),
  };
}
