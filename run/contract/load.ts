// A loaded machine makes checks run out of time. Such a check is a kit error (WFMCK_E_SLOW_RUN), never a finding, but
// it judges nothing: at the start of a run the kit says how busy the machine is and which --timeout-scale would help.
import { availableParallelism, loadavg } from 'node:os';

/** One-minute load per core above which the 60 s budgets of the checks are at risk. */
const BUSY_PER_CORE = 2;
const MAX_SUGGESTED = 10;

/** The notice to print, or undefined when the machine is not busy or the run already scales its budgets. */
export function loadNotice(scale: number | undefined, load1 = loadavg()[0]!, cores = availableParallelism()): string | undefined {
  const perCore = load1 / Math.max(1, cores);
  if (scale !== undefined || !(perCore > BUSY_PER_CORE)) return undefined;
  const suggested = Math.min(MAX_SUGGESTED, Math.max(2, Math.ceil(perCore / BUSY_PER_CORE)));
  return (
    `notice: load average ${load1.toFixed(1)} on ${cores} core${cores === 1 ? '' : 's'}: checks may run out of time ` +
    `(each such check is a kit error, WFMCK_E_SLOW_RUN, not a finding); --timeout-scale ${suggested} (WFMCK_TIMEOUT_SCALE) gives them ${suggested} times their time`
  );
}
