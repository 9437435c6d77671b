// "Did you mean": the closest known name to a mistyped flag, command or YAML key, offered only when it is close.

/** Damerau-Levenshtein (optimal string alignment): insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/** The known name closest to `given` (case aside), when within max(2, a third of its length) edits; else undefined. */
export function closest(given: string, known: Iterable<string>): string | undefined {
  const g = given.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(g, name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  // Never a name that shares nothing with what was typed (two letters against two others).
  const near = best && best.distance < g.length && best.distance <= Math.max(2, Math.floor(g.length / 3));
  return near ? best!.name : undefined;
}

/** `; did you mean X?` for the closest known name, or nothing. */
export function didYouMean(given: string, known: Iterable<string>, show: (name: string) => string = (n) => n): string {
  const name = closest(given, known);
  return name === undefined ? '' : `; did you mean ${show(name)}?`;
}

/**
 * `; did you mean "a.b"?` for a dotted key no setting has: the closest key beside it (same parent), else a known key
 * that ends like it (a key written at the wrong level: `wfm:` at the top for `targets.wfm`).
 */
export function didYouMeanKey(key: string, known: readonly string[]): string {
  const at = key.lastIndexOf('.');
  const [parent, last] = at === -1 ? ['', key] : [key.slice(0, at + 1), key.slice(at + 1)];
  const siblings = new Set(known.filter((k) => k.startsWith(parent)).map((k) => k.slice(parent.length).split('.')[0]!));
  const near = closest(last, siblings);
  if (near !== undefined) return `; did you mean "${parent}${near}"?`;
  const byLeaf = new Map(known.map((k) => [k.slice(k.lastIndexOf('.') + 1), k]));
  const leaf = closest(last, byLeaf.keys());
  return leaf === undefined ? '' : `; did you mean "${byLeaf.get(leaf)}"?`;
}
