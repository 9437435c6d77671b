// The Playwright process of a run, tied to wfmck's life. It runs in a process group of its own (a terminal's Ctrl-C
// reaches only wfmck, which forwards it once: a second SIGINT would make Playwright stop without its reporters). wfmck
// turns SIGINT, SIGTERM and SIGHUP into Playwright's graceful stop (its reporters write the partial report), and ends
// the whole group if that takes too long. If wfmck itself dies (SIGKILL), the runner sees the watchdog pipe close and
// kills its group (playwright.config.ts): no process outlives `wfmck run`.
import { spawn, type ChildProcess } from 'node:child_process';
import { WATCHDOG_ENV, WATCHDOG_FD } from './watchdog.ts';

/** How long Playwright gets to stop gracefully (reporters included) before its group is killed. */
export const STOP_GRACE_MS = 30_000;

const EXIT_BY_SIGNAL: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export function signalExitCode(signal: NodeJS.Signals): number {
  return EXIT_BY_SIGNAL[signal] ?? 130;
}

export interface Signals {
  caught: NodeJS.Signals | undefined;
  /** The Playwright runner, once started. */
  child: ChildProcess | undefined;
  /** True when the runner did not stop in time and its group was killed (its reporters wrote nothing). */
  killed: boolean;
  /** Stops the runner as a signal would (its reporters write the partial report), for a reason of wfmck's own. */
  stop(): void;
  dispose(): void;
}

function killGroup(child: ChildProcess | undefined, signal: NodeJS.Signals): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

/** Records SIGINT, SIGTERM and SIGHUP; the first one stops the runner gracefully, a deadline later its group dies. */
export function catchSignals(graceMs = STOP_GRACE_MS): Signals {
  let deadline: NodeJS.Timeout | undefined;
  const state: Signals = {
    caught: undefined,
    child: undefined,
    killed: false,
    stop: () => stopRunner(),
    dispose: () => {
      clearTimeout(deadline);
      for (const s of Object.keys(EXIT_BY_SIGNAL)) process.off(s, onSignal);
    },
  };
  function onSignal(signal: NodeJS.Signals): void {
    if (state.caught !== undefined) return;
    state.caught = signal;
    stopRunner();
  }
  function stopRunner(): void {
    if (deadline !== undefined) return;
    // Playwright's graceful stop is its SIGINT, whatever reached wfmck.
    state.child?.kill('SIGINT');
    deadline = setTimeout(() => {
      state.killed = true;
      killGroup(state.child, 'SIGKILL');
    }, graceMs);
    deadline.unref();
  }
  for (const s of Object.keys(EXIT_BY_SIGNAL)) process.on(s, onSignal);
  return state;
}

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
  signals.child = child;
  // A signal that came while the runner was starting: stop it at once.
  if (signals.caught) child.kill('SIGINT');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      // Workers the runner left behind (it was killed, say) go with it.
      killGroup(child, 'SIGKILL');
      resolve(code);
    });
  });
}
