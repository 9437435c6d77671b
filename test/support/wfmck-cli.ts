// `wfmck` as a user runs it: a child process of bin/wfmck.mjs, its exit code and everything it printed.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const WFMCK_BIN = fileURLToPath(new URL('../../bin/wfmck.mjs', import.meta.url));

/** Node's arguments that run a TypeScript file of the kit in a child process, as the kit starts its own. */
export const TYPESCRIPT = ['--import', new URL('../../bin/typescript.mjs', import.meta.url).href];

/**
 * For a whole-suite run whose test is about the kit's plumbing (a target's outage, its name, a root cause, a report),
 * not about how deep the properties look: 10 runs each instead of 100. The fault set's clean controls and faults run
 * every property at its default depth.
 */
export const PLUMBING = ['--runs', '10'];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function runWfmck(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [WFMCK_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** `wfmck` started and left running: the child (to signal it), what it printed so far, and its exit. */
export function startWfmck(args: string[]) {
  const child = spawn(process.execPath, [WFMCK_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (out.stdout += d));
  child.stderr.on('data', (d) => (out.stderr += d));
  return { child, out, exit: once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]> };
}
