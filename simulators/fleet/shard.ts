// Disjoint, deterministic slices of a fleet: top-level device k belongs to shard k mod n. A gateway is one
// top-level device with its children inside its description, so it never straddles two shards.
import type { Shard } from './spec.ts';

/** `i/n` with 1 <= i <= n, as `--shard` spells it for fleets and for `wfmck run`; undefined when it is not. */
export function parseShard(raw: unknown): { index: number; total: number } | undefined {
  const m = typeof raw === 'string' ? /^(\d+)\/(\d+)$/.exec(raw.trim()) : null;
  const [index, total] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
  return total >= 1 && index >= 1 && index <= total ? { index, total } : undefined;
}

export function shardOf(index: number, count: number): number {
  return index % count;
}

/** The top-level indexes of one shard, in order, without building the list. */
export function* shardIndexes(total: number, shard: Shard): Generator<number> {
  for (let k = shard.index; k < total; k += shard.count) yield k;
}

/** How many of `total` top-level devices fall in the shard. */
export function shardSize(total: number, shard: Shard): number {
  return shard.index >= total ? 0 : Math.ceil((total - shard.index) / shard.count);
}
