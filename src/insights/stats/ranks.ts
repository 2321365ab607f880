/**
 * Ranks from 1, ties given the mean of the ranks they span ("average" ranks, as SciPy's `rankdata`
 * and every textbook Spearman use): [10, 20, 20, 30] → [1, 2.5, 2.5, 4].
 */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Array<number>(values.length);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && values[order[end + 1]!] === values[order[start]!]) end++;
    // Positions start..end (0-based) hold ranks start+1..end+1: their mean.
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[order[k]!] = rank;
    start = end + 1;
  }
  return ranks;
}
