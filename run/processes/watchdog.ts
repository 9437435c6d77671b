// A process of the kit never outlives the process that started it. Two ways to notice that it went away:
// - the Playwright runner (run/processes/playwright-process.ts): `wfmck run` hands it a pipe on fd 3 and never writes to it; when
//   wfmck dies, however it dies (SIGKILL too), the pipe closes, and the runner kills its own process group, workers
//   included: a run never outlives wfmck to judge services that are gone;
// - the long-running commands (serve, fleet, client, run, faults): their parent's pid is polled, because wrappers such
//   as `npx` do not pass a signal on (`npx wfmck serve &` then `kill $!` ends npm and leaves serve behind); when it
//   changes (the orphan went to init or a subreaper), the command stops as on SIGTERM.
import { readFileSync } from 'node:fs';
import { processAlive } from './process-alive.ts';

/** The fd on which the runner watches its parent. */
export const WATCHDOG_FD = 3;
export const WATCHDOG_ENV = 'WFMCK_WATCHDOG_FD';

/** How often a command looks at its parent: a second is well inside "within a few seconds", and costs one read. */
export const PARENT_POLL_MS = 1000;

/** Calls `onGone` once when the process that started this one goes away: its end of the pipe on `fd` closes, or (no fd)
 * this process's parent changes. Never keeps the process alive. */
export function whenParentGone(onGone: () => void, via: { fd: number } | { pollMs: number }): void {
  let timer: NodeJS.Timeout | undefined;
  let watching = true;
  const gone = () => {
    if (!watching) return;
    watching = false;
    clearInterval(timer);
    onGone();
  };
  if ('pollMs' in via) {
    const first = parentPid();
    timer = setInterval(() => isParent(first) || gone(), via.pollMs);
    timer.unref();
    return;
  }
  void import('node:net').then(({ Socket }) => {
    let pipe: InstanceType<typeof Socket>;
    try {
      pipe = new Socket({ fd: via.fd, readable: true, writable: false });
    } catch {
      return;
    }
    pipe.on('end', gone).on('close', gone).on('error', gone);
    pipe.resume();
    pipe.unref();
  });
}

/** In the Playwright runner (playwright.config.ts): when the pipe from wfmck closes, wfmck is gone, and so is this run. */
export function watchParent(env: NodeJS.ProcessEnv = process.env): void {
  const fd = Number(env[WATCHDOG_ENV]);
  // Workers inherit the env but not the pipe: only the runner watches.
  if (!Number.isInteger(fd) || env.TEST_WORKER_INDEX !== undefined || (globalThis as Record<string, unknown>).__wfmckWatchdog) return;
  (globalThis as Record<string, unknown>).__wfmckWatchdog = true;
  whenParentGone(
    () => {
      try {
        process.kill(-process.pid, 'SIGKILL');
      } catch {
        process.kill(process.pid, 'SIGKILL');
      }
    },
    { fd },
  );
}

/**
 * In a long-running command: once its parent is gone, one line on stderr and SIGTERM to itself, so the command stops
 * the way it does on `kill` (serve closes its services, a fleet writes its summary, a run its report). A command started
 * in a session of its own (`setsid`, as examples/hooks/start-client.sh starts its client) was detached on purpose and
 * is not watched.
 */
export function endWithParent(command: string, pollMs = PARENT_POLL_MS): void {
  if (ownSession()) return;
  const parent = parentPid();
  whenParentGone(
    () => {
      process.stderr.write(`wfmck ${command}: the process that started it (pid ${parent}) is gone; stopping as on SIGTERM\n`);
      process.kill(process.pid, 'SIGTERM');
    },
    { pollMs },
  );
}

/** Fields 4 (ppid) and 6 (session) of /proc/self/stat, after the command name (which may hold spaces and parentheses). */
function procStat(): { ppid: number; session: number } | undefined {
  try {
    const text = readFileSync('/proc/self/stat', 'latin1');
    const [, ppid, , session] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), session: Number(session) };
  } catch {
    return undefined;
  }
}

/** Node reads process.ppid once, at start; /proc says what it is now. */
function parentPid(): number {
  return procStat()?.ppid ?? process.ppid;
}

/** Without /proc (macOS), a parent that is gone no longer takes signal 0. */
function isParent(pid: number): boolean {
  const now = procStat();
  return now ? now.ppid === pid : processAlive(pid);
}

function ownSession(): boolean {
  return procStat()?.session === process.pid;
}
