// Ramping stages of a fleet (`--stages 30s:100,2m:1000`), as load tools ramp virtual users: each stage moves the
// number of started devices linearly from the previous stage's target to its own over its duration. Devices do not
// stop once started, so targets never go down; past the last stage every remaining device may start.

export interface Stage {
  /** Length of the stage in seconds. */
  seconds: number;
  /** Started top-level devices (of the whole fleet) by the end of the stage. */
  target: number;
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;
const SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/** `30s:100,2m:1000` (or a list of such items, or of `{ duration, target }` from a fleet file). */
export function parseStages(value: unknown): Stage[] {
  const items = Array.isArray(value) ? value : String(value).split(',');
  const stages = items.map((item): Stage => {
    const [duration, target] =
      typeof item === 'object' && item !== null
        ? [String((item as Record<string, unknown>)['duration']), String((item as Record<string, unknown>)['target'])]
        : String(item).trim().split(':');
    const d = DURATION.exec((duration ?? '').trim());
    if (!d || target === undefined || !/^\d+$/.test(target.trim()))
      throw new Error(
        `"${typeof item === 'object' ? JSON.stringify(item) : String(item)}" is not a stage: DURATION:DEVICES, e.g. 30s:100 or 2m:1000`,
      );
    return { seconds: Number(d[1]) * SECONDS[d[2]!]!, target: Number(target) };
  });
  stages.forEach((s, i) => {
    if (i > 0 && s.target < stages[i - 1]!.target)
      throw new Error(
        `stage ${i + 1} (${s.target} devices) goes down from ${stages[i - 1]!.target}: started devices keep running, so targets only go up`,
      );
  });
  return stages;
}

/**
 * How many devices may have started `elapsedMs` into the run, for a shard holding `fraction` of the fleet's devices:
 * the ramp of the current stage, scaled; Infinity once the stages are over (or when there are none).
 */
export function startsAllowed(stages: readonly Stage[], elapsedMs: number, fraction = 1): number {
  let from = 0;
  let at = 0;
  for (const s of stages) {
    const end = at + s.seconds * 1000;
    if (elapsedMs < end) {
      const share = s.seconds === 0 ? 1 : (elapsedMs - at) / (end - at);
      return Math.floor((from + (s.target - from) * share) * fraction);
    }
    from = s.target;
    at = end;
  }
  return Infinity;
}
