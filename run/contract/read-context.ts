// The one reader of the run context file (run/contract/context.ts) that `wfmck run` or Playwright's global setup writes:
// playwright.config.ts, the fixtures and the reporters all read it here, with one parse and one cast.
import { readFileSync } from 'node:fs';
import type { RunContext } from './context.ts';

/** The env variable naming the run context file; the only setting a Playwright process gets from its parent. */
export const CONTEXT_ENV = 'WFMCK_CONTEXT';

/** The run context in `file` (by default the one WFMCK_CONTEXT names); undefined when there is none (yet). Throws when unreadable. */
export function readRunContext(file: string | undefined = process.env[CONTEXT_ENV]): RunContext | undefined {
  if (!file) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RunContext;
  } catch (e) {
    throw new Error(`run context ${file} unreadable (${(e as Error).message})`);
  }
}
