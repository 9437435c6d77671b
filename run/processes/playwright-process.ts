// The Playwright process of a run, tied to wfmck's life. It runs in a process group of its own (a terminal's Ctrl-C
// reaches only wfmck, which forwards it once: a second SIGINT would make Playwright stop without its reporters). wfmck
// turns SIGINT, SIGTERM and SIGHUP into Playwright's graceful stop (its reporters write the partial report), and ends
// the whole group if that takes too long. If wfmck itself dies (SIGKILL), the runner sees the watchdog pipe close and
// kills its group (playwright.config.ts): no process outlives `wfmck run`.
import { spawn } from 'node:child_process';
import { killGroup, type Signals } from './signals.ts';
import { WATCHDOG_ENV, WATCHDOG_FD } from './watchdog.ts';

/** How long Playwright gets to stop gracefully (reporters included) before its group is killed. */
const STOP_GRACE_MS = 30_000;

/** The signals of a run: the first stops the runner with SIGINT (Playwright's graceful stop, whatever reached wfmck). */
export const PLAYWRIGHT_SIGNALS = { forwardAs: 'SIGINT', graceMs: STOP_GRACE_MS } as const;

/** Starts the runner with the watchdog pipe; resolves to its exit code once it and its group are gone. */
export function runPlaywrightProcess(
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
  signals: Signals,
): Promise<number | null> {
  const child = spawn(process.execPath, args, {
    cwd: opts.cwd,
    env: { ...opts.env, [WATCHDOG_ENV]: String(WATCHDOG_FD) },
    stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
    detached: true,
  });
  // A signal that came while the runner was starting stops it at once.
  signals.started(child);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      // Workers the runner left behind (it was killed, say) go with it.
      killGroup(child, 'SIGKILL');
      resolve(code);
    });
  });
}
