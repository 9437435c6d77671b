// The Playwright runner's side of the watchdog (cli/playwright-process.ts): `wfmck run` hands it a pipe on fd 3 and never
// writes to it. When wfmck dies, however it dies (SIGKILL too), the pipe closes, and the runner kills its own process
// group, workers included: a run never outlives wfmck to judge services that are gone.

/** The fd on which the runner watches its parent. */
export const WATCHDOG_FD = 3;
export const WATCHDOG_ENV = 'WFMCK_WATCHDOG_FD';

/** In the Playwright runner (playwright.config.ts): when the pipe from wfmck closes, wfmck is gone, and so is this run. */
export function watchParent(env: NodeJS.ProcessEnv = process.env): void {
  const fd = Number(env[WATCHDOG_ENV]);
  // Workers inherit the env but not the pipe: only the runner watches.
  if (!Number.isInteger(fd) || env.TEST_WORKER_INDEX !== undefined || (globalThis as Record<string, unknown>).__wfmckWatchdog) return;
  (globalThis as Record<string, unknown>).__wfmckWatchdog = true;
  void import('node:net').then(({ Socket }) => {
    let pipe: InstanceType<typeof Socket>;
    try {
      pipe = new Socket({ fd, readable: true, writable: false });
    } catch {
      return;
    }
    const orphaned = () => {
      try {
        process.kill(-process.pid, 'SIGKILL');
      } catch {
        process.kill(process.pid, 'SIGKILL');
      }
    };
    pipe.on('end', orphaned).on('close', orphaned).on('error', orphaned);
    pipe.resume();
    pipe.unref();
  });
}
