// Child processes of a figure that must run their phases together (the mTLS workers, the TLS floor's clients): the
// parent says when each phase starts, and reads each child's reports in order.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { typescriptImport } from './wfm-process.ts';

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
function reportsOf<R extends { type: string }>(child: ChildProcess, what: string) {
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

/**
 * In the parent: `count` processes of one TypeScript file, each a child in step. `all(type)` waits for every child's
 * next report, which must be of that type; `step(phase, type)` tells every child to start `phase`, then waits so.
 */
export function forkInStep<R extends { type: string }>(file: URL, count: number, what: string, execArgv: string[] = []) {
  const children = Array.from({ length: count }, () =>
    fork(fileURLToPath(file), [], { execArgv: [...typescriptImport(), ...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const inbox = children.map((c, j) => reportsOf<R>(c, `${what} ${j + 1}/${count}`));
  const all = <T extends R['type']>(type: T) => Promise.all(inbox.map((next) => next(type)));
  return {
    children,
    all,
    step: <T extends R['type']>(phase: string, type: T) => {
      for (const c of children) c.send(phase);
      return all(type);
    },
    /** Up to 30 s for every child to end by itself (each stops what it started first); kill() is for one that does not. */
    exited: async () => {
      const ended = (c: ChildProcess) => (c.exitCode !== null || c.signalCode !== null ? undefined : once(c, 'exit'));
      await Promise.race([Promise.all(children.map(ended)), setTimeout(30_000, undefined, { ref: false })]);
    },
    kill: () => {
      for (const c of children) c.kill();
    },
  };
}

/** In the child: runs `body` on the parent's first message, then lets go of the parent; a failure is said and exits 1. */
export function childMain<S>(what: (start: S) => string, body: (start: S) => Promise<void>): void {
  process.once('message', (start: S) => {
    body(start).then(
      () => process.disconnect(),
      (err: unknown) => {
        process.stderr.write(`${what(start)}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        process.exit(1);
      },
    );
  });
}

/** The sum of some figures. */
export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** n split over k processes as the workers split it (index mod k): the first n mod k take one more. */
export function sharesOf(n: number, k: number): number[] {
  return Array.from({ length: k }, (_, j) => Math.floor(n / k) + (j < n % k ? 1 : 0));
}
