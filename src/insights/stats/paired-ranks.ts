import { pearson } from './spearman.js';

/**
 * Spearman correlations of many pairs of daily series at once, without sorting per pair. Each series
 * (one value per day, NaN where unknown) is sorted once; the ranks of a pair's common days are then
 * read off that order in one pass (ties averaged, exactly as `averageRanks` on the subset would), so a
 * pair costs a few linear passes: 450 pairs of a year take a few milliseconds instead of hundreds.
 */
export class SortedSeries {
  /** Indices of the known values, by value ascending. */
  readonly order: Int32Array;

  constructor(readonly values: Float64Array) {
    const known: number[] = [];
    for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]!)) known.push(i);
    known.sort((a, b) => values[a]! - values[b]!);
    this.order = Int32Array.from(known);
  }

  /** Whether the series varies at all (a constant series has no ranks to correlate). */
  get varies(): boolean {
    return this.order.length > 1 && this.values[this.order[0]!] !== this.values[this.order[this.order.length - 1]!];
  }
}

/**
 * Average ranks (from 1) of `series` over the days where `member[i - shift]` is set, written to
 * `ranks[i - shift]`: `shift` maps the series' day to the pair's day (the outcome series is read `lag`
 * days later).
 */
function ranksOver(series: SortedSeries, member: Uint8Array, shift: number, ranks: Float64Array): void {
  const { order, values } = series;
  let rank = 0; // ranks given so far
  let k = 0;
  while (k < order.length) {
    // The run of equal values starting at k, members only.
    const value = values[order[k]!]!;
    let end = k;
    let members = 0;
    while (end < order.length && values[order[end]!] === value) {
      const day = order[end]! - shift;
      if (day >= 0 && day < member.length && member[day]) members++;
      end++;
    }
    if (members) {
      const average = rank + (members + 1) / 2;
      for (let j = k; j < end; j++) {
        const day = order[j]! - shift;
        if (day >= 0 && day < member.length && member[day]) ranks[day] = average;
      }
      rank += members;
    }
    k = end;
  }
}

export interface PairedRanks {
  /** Days (indices of the condition series) used: both values known. */
  days: number[];
  rho: number;
}

/**
 * Spearman's rho of `a` on day i against `b` on day i + lag, over the days where both are known; null
 * with fewer than `minPairs` such days or when either side is constant on them.
 */
export function pairedSpearman(a: SortedSeries, b: SortedSeries, lag: number, minPairs: number): PairedRanks | null {
  const length = a.values.length;
  const member = new Uint8Array(length);
  const days: number[] = [];
  for (let i = 0; i + lag < length; i++) {
    if (!Number.isNaN(a.values[i]!) && !Number.isNaN(b.values[i + lag]!)) {
      member[i] = 1;
      days.push(i);
    }
  }
  if (days.length < minPairs) return null;
  const ra = new Float64Array(length);
  const rb = new Float64Array(length);
  ranksOver(a, member, 0, ra);
  ranksOver(b, member, lag, rb);
  const x = new Float64Array(days.length);
  const y = new Float64Array(days.length);
  days.forEach((day, i) => {
    x[i] = ra[day]!;
    y[i] = rb[day]!;
  });
  const rho = pearson(x, y);
  if (Number.isNaN(rho)) return null;
  return { days, rho: Math.max(-1, Math.min(1, rho)) };
}
