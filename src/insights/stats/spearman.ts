import { averageRanks } from './ranks.js';
import { studentTTwoSided } from './student-t.js';

export interface Correlation {
  /** Spearman's rho: Pearson's correlation of the average ranks, -1..1. */
  rho: number;
  /** Pairs used. */
  n: number;
  /** Two-sided p-value of rho = 0 (t-approximation with n - 2 degrees of freedom). */
  p: number;
}

/** Pearson's correlation of two equally long series; NaN when either is constant. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return NaN;
  return sxy / Math.sqrt(sxx * syy);
}

/**
 * The p-value of a Spearman rho from n pairs, as SciPy's `spearmanr` computes it: t = rho·√((n−2)/(1−rho²))
 * against Student's t with n − 2 degrees of freedom, two-sided. |rho| = 1 gives p = 0.
 */
export function spearmanP(rho: number, n: number): number {
  const df = n - 2;
  if (df <= 0) return NaN;
  const denominator = (1 - rho) * (1 + rho);
  if (denominator <= 0) return 0;
  const t = rho * Math.sqrt(df / denominator);
  return studentTTwoSided(t, df);
}

/**
 * Spearman's rank correlation with ties averaged, and its p-value. Null when a series is constant
 * (no ranks to correlate) or fewer than 3 pairs are given.
 */
export function spearman(x: readonly number[], y: readonly number[]): Correlation | null {
  if (x.length !== y.length) throw new Error('spearman: series of different lengths');
  const n = x.length;
  if (n < 3) return null;
  const rho = pearson(averageRanks(x), averageRanks(y));
  if (Number.isNaN(rho)) return null;
  // Floating noise can carry a perfect correlation just past 1.
  const bounded = Math.max(-1, Math.min(1, rho));
  return { rho: bounded, n, p: spearmanP(bounded, n) };
}
