/**
 * Benjamini–Hochberg adjusted p-values ("q-values"), in the order given: q_(i) = min over j ≥ i of
 * p_(j)·m/j (sorted ascending, m tests), capped at 1. A test whose q is at most α is a discovery with
 * the false discovery rate controlled at α across all m tests. The same numbers as SciPy's
 * `false_discovery_control(p, method='bh')` and R's `p.adjust(p, "BH")`.
 */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((_, i) => i).sort((a, b) => pValues[b]! - pValues[a]!); // largest p first
  const q = new Array<number>(m);
  let running = 1;
  for (let k = 0; k < m; k++) {
    const index = order[k]!;
    const rank = m - k; // rank among ascending p-values, from 1
    running = Math.min(running, (pValues[index]! * m) / rank);
    q[index] = running;
  }
  return q;
}
