// What can be known of a hook without running it. Every P5 hook changes the target's state (assign, retire, rotate,
// withdraw), so neither doctor nor the pre-flight runs one; they read its script instead: a shell script must parse
// (`bash -n`), and every variable it declares required (`${VAR:?why}` or `${VAR?why}`, the shell's own way to stop
// when one is unset) must be set in the environment the run gives it. That catches the commonest wiring fault, an
// example hook copied without its variables, in a second instead of after a run of failed checks.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

const MAX_SCRIPT_BYTES = 256 * 1024;
/** `${NAME:?message}` or `${NAME?message}`: the message (up to the closing brace) says what NAME is. */
const REQUIRED_VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(:?)\?([^}]*)\}/g;

export interface HookScriptCheck {
  /** What is wrong, each a sentence; empty when nothing is. */
  problems: string[];
  /** What was checked, for doctor's line: "bash -n, 2 required variables". */
  checked: string;
}

/** The script a hook command runs, when it is a shell script the kit can read (else undefined: nothing to read). */
export function hookScript(command: string, cwd: string): string | undefined {
  const word = /^\s*(?:"([^"]+)"|'([^']+)'|(\S+))/.exec(command);
  const first = word?.[1] ?? word?.[2] ?? word?.[3];
  if (first === undefined || !first.includes('/')) return undefined;
  const path = isAbsolute(first) ? first : resolve(cwd, first);
  try {
    if (!statSync(path).isFile() || statSync(path).size > MAX_SCRIPT_BYTES) return undefined;
    const text = readFileSync(path, 'utf8');
    return /^#!.*\b(?:ba|da|z)?sh\b/.test(text) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the hook's script (when it is one): its syntax, and the variables it requires against `env`. */
export function checkHookScript(command: string, cwd: string, env: Record<string, string | undefined>): HookScriptCheck | undefined {
  const path = hookScript(command, cwd);
  if (path === undefined) return undefined;
  const problems: string[] = [];
  const text = readFileSync(path, 'utf8');
  const syntax = spawnSync('bash', ['-n', path], { encoding: 'utf8', timeout: 5_000 });
  if (syntax.status !== 0 && syntax.error === undefined)
    problems.push(`${path} does not parse (bash -n): ${syntax.stderr.trim().split('\n')[0] ?? ''}`);
  const required = new Map<string, { emptyCounts: boolean; why: string }>();
  for (const m of text.matchAll(REQUIRED_VARIABLE)) {
    const seen = required.get(m[1]!);
    required.set(m[1]!, { emptyCounts: (seen?.emptyCounts ?? false) || m[2] === ':', why: seen?.why || m[3]!.trim() });
  }
  // The kit sets these two itself for every hook it runs.
  for (const name of ['WFMCK_HOOK_NAME', 'WFMCK_HOOK_INPUT']) required.delete(name);
  for (const [name, r] of required) {
    const value = env[name];
    if (value === undefined || (r.emptyCounts && value === ''))
      problems.push(`${path} needs ${name}${r.why ? ` (${r.why})` : ''}, which is not set in this environment`);
  }
  return { problems, checked: `bash -n, ${required.size} required variable${required.size === 1 ? '' : 's'}` };
}
