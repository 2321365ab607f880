/*
 * Training metrics computed from stored sets (operations.md, Training). Never stored, never accepted
 * from a client. Rounding: e1RM, best e1RM, %1RM and the fatigue index to one decimal, volume to two
 * (loads like 102.25 kg make exact volumes with two decimals).
 */

export interface SetWork {
  reps?: number | null;
  load?: number | null;
}

/** Epley's e1RM, load × (1 + reps/30), unrounded; null without a positive load and reps. */
export function rawE1rm(set: SetWork): number | null {
  if (!set.load || !set.reps || set.load <= 0 || set.reps <= 0) return null;
  return set.load * (1 + set.reps / 30);
}

export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  // EPSILON keeps 0.05-style halves from rounding down through binary noise.
  return Math.round((value + Math.sign(value) * Number.EPSILON * Math.abs(value)) * factor) / factor;
}

/** e1RM of a set, one decimal: 100 kg × 5 → 116.7. */
export function e1rm(set: SetWork): number | null {
  const value = rawE1rm(set);
  return value === null ? null : round(value, 1);
}

/** The set's load as a percentage of `reference` (oneRepMax or the 90-day best e1RM), one decimal. */
export function percent1rm(set: SetWork, reference: number | null | undefined): number | null {
  if (!set.load || set.load <= 0 || !reference || reference <= 0) return null;
  return round((set.load / reference) * 100, 1);
}

/** Σ reps × load over the sets with both; 0 when none. */
export function volume(sets: readonly SetWork[]): number {
  return round(sets.reduce((sum, s) => sum + (s.reps ?? 0) * (s.load ?? 0), 0), 2);
}

/** The best e1RM among the sets, one decimal; null when no set has reps and load. */
export function bestE1rm(sets: readonly SetWork[]): number | null {
  const values = sets.map(rawE1rm).filter((v): v is number => v !== null);
  return values.length ? round(Math.max(...values), 1) : null;
}

/**
 * Percentage drop of reps × load from the first to the last set (in set order) that has both, one
 * decimal: 100×10 then 100×7 → 30. Negative when the last set did more work. null with fewer than two
 * such sets.
 */
export function fatigueIndex(sets: readonly SetWork[]): number | null {
  const work = sets.filter((s) => (s.reps ?? 0) > 0 && (s.load ?? 0) > 0).map((s) => s.reps! * s.load!);
  if (work.length < 2) return null;
  const first = work[0]!;
  const last = work[work.length - 1]!;
  return round(((first - last) / first) * 100, 1);
}
