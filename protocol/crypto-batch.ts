// Native signs and verifies run back to back, once per turn of the event loop, instead of one inside each request's
// own work. P-256's precomputed tables stay in the CPU's caches across a batch; between a request's parsing, TLS and
// garbage, they are evicted. Measured on this 2-core machine (docs/history.md, "Native crypto in batches"): a P-256
// verify 67 µs back to back, 88 µs after touching 256 KB of other memory, 114 µs after 1 MB; a sign 27, 36 and 46 µs.
//
// A batch runs at most BATCH_LIMIT operations; the rest run in the next turn. Every answer of a batch waits for its
// last operation, so 64 onboardings read in one turn held each other's answers ~6 ms, while the process at the other
// end had nothing to do; both then worked in turns, ~18% of two cores idle (docs/history.md, "A batch limit").

interface Job {
  op: () => unknown;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

/** Enough for the tables to stay warm (a batch of 16 P-256 verifies is ~1 ms); small enough to let answers out early. */
export const BATCH_LIMIT = 16;

let queue: Job[] = [];
let scheduled = false;

/**
 * `op` (a synchronous native crypto call) runs with every other op queued in this turn, in the check phase after the
 * poll phase that read their requests: all of a turn's requests reach their crypto before any of it runs, BATCH_LIMIT
 * at a time, in the order queued.
 */
export function inCryptoBatch<T>(op: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queue.push({ op, resolve: resolve as (value: unknown) => void, reject });
    if (!scheduled) {
      scheduled = true;
      setImmediate(runBatch);
    }
  });
}

function runBatch(): void {
  let jobs: Job[];
  if (queue.length > BATCH_LIMIT) {
    // The rest wait for the next turn's check phase, after this batch's answers are written and the poll phase.
    jobs = queue.splice(0, BATCH_LIMIT);
    setImmediate(runBatch);
  } else {
    jobs = queue;
    queue = [];
    scheduled = false;
  }
  for (const job of jobs) {
    try {
      job.resolve(job.op());
    } catch (e) {
      job.reject(e);
    }
  }
}
