// Child processes of a figure that must run their phases together (the mTLS workers, the TLS floor's clients): the
// parent says when each phase starts, and reads each child's reports in order.
import type { ChildProcess } from 'node:child_process';

/** In the child: resolves when the parent sends `name`. */
export function parentSays(name: string): Promise<void> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      if (m !== name) return;
      process.off('message', on);
      resolve();
    };
    process.on('message', on);
  });
}

/**
 * In the parent: next(type) resolves with the child's next report, which must be of that type; it rejects if the
 * child exits first.
 */
export function reportsOf<R extends { type: string }>(child: ChildProcess, what: string) {
  const queue: R[] = [];
  let waiting: ((r: R | Error) => void) | undefined;
  let ended: Error | undefined;
  const deliver = (r: R | Error) => {
    const taker = waiting;
    waiting = undefined;
    if (taker) taker(r);
    else if (!(r instanceof Error)) queue.push(r);
  };
  child.on('message', (r: R) => deliver(r));
  child.once('exit', (code, signal) => {
    ended = new Error(`bench: ${what} exited (${signal ?? code}) before it reported`);
    deliver(ended);
  });
  return <T extends R['type']>(type: T): Promise<Extract<R, { type: T }>> =>
    new Promise((resolve, reject) => {
      const take = (r: R | Error) => {
        if (r instanceof Error) reject(r);
        else if (r.type !== type) reject(new Error(`bench: ${what} reported ${r.type}, expected ${type}`));
        else resolve(r as Extract<R, { type: T }>);
      };
      const queued = queue.shift();
      if (queued) take(queued);
      else if (ended) reject(ended);
      else waiting = take;
    });
}

/** n split over k processes as the workers split it (index mod k): the first n mod k take one more. */
export function sharesOf(n: number, k: number): number[] {
  return Array.from({ length: k }, (_, j) => Math.floor(n / k) + (j < n % k ? 1 : 0));
}
