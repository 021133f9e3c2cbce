/**
 * "Did you mean …": the known name nearest to what was typed, by edit distance (insertions, deletions,
 * substitutions and swaps of neighbours, case ignored), when it is near enough to be a slip rather than another word.
 */

/** Optimal string alignment distance between `a` and `b`. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The name in `known` nearest to `typed`, or undefined when none is within a third of the longer word (at least 1,
 * at most 3 edits): `lss` → `ls`, `quti` → `quit`, `frobnicate` → nothing. A name that `typed` starts, or that starts
 * `typed`, wins over the distance (`getEph` → `getEphemerals`).
 */
export function nearest(typed: string, known: Iterable<string>): string | undefined {
  const t = typed.toLowerCase();
  let best: { name: string; distance: number; prefix: boolean } | undefined;
  for (const name of known) {
    const n = name.toLowerCase();
    const prefix = t.length >= 3 && n.length > 1 && (n.startsWith(t) || t.startsWith(n));
    const distance = editDistance(t, n);
    const limit = Math.min(3, Math.max(1, Math.floor(Math.max(t.length, n.length) / 3)));
    if (!prefix && distance > limit) continue;
    const better = best === undefined || (prefix && !best.prefix) || (prefix === best.prefix && distance < best.distance);
    if (better) best = { name, distance, prefix };
  }
  return best?.name;
}
