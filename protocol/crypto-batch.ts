// Native signs and verifies run back to back, once per turn of the event loop, instead of one inside each request's
// own work. P-256's precomputed tables stay in the CPU's caches across a batch; between a request's parsing, TLS and
// garbage, they are evicted. Measured on this 2-core machine (docs/scale.md, "Native crypto in batches"): a P-256
// verify 67 µs back to back, 88 µs after touching 256 KB of other memory, 114 µs after 1 MB; a sign 27, 36 and 46 µs.

interface Job {
  op: () => unknown;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

let queue: Job[] = [];
let scheduled = false;

/**
 * `op` (a synchronous native crypto call) runs with every other op queued in this turn, in the check phase after the
 * poll phase that read their requests: all of a turn's requests reach their crypto before any of it runs.
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
  const jobs = queue;
  queue = [];
  scheduled = false;
  for (const job of jobs) {
    try {
      job.resolve(job.op());
    } catch (e) {
      job.reject(e);
    }
  }
}
