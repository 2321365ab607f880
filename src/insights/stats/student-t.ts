import cdf from '@stdlib/stats-base-dists-t-cdf';

/**
 * Two-sided tail probability P(|T| ≥ |t|) of Student's t with `df` degrees of freedom, from stdlib's
 * maintained CDF (the regularized incomplete beta function, accurate far into the tails).
 */
export function studentTTwoSided(t: number, df: number): number {
  if (!Number.isFinite(t)) return Number.isNaN(t) ? NaN : 0;
  return Math.min(1, 2 * cdf(-Math.abs(t), df));
}
