// Whether a process still runs, by its pid: the lock's stale entries (run/processes/shared-lock.ts) and a command's parent
// without /proc (run/processes/watchdog.ts) ask the same question.

/** Signal 0 tests without signalling; EPERM means it exists, owned by someone else. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
