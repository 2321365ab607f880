import { InsightMetric, METRICS, type MetricDefinition } from './metrics.js';
import { benjaminiHochberg } from './stats/benjamini-hochberg.js';
import { pairedSpearman, SortedSeries } from './stats/paired-ranks.js';
import { spearmanP } from './stats/spearman.js';

/** Pairs of days a test needs at least: below three weeks a rank correlation says little. */
export const MIN_SAMPLE = 21;
/** The false discovery rate the Benjamini–Hochberg step controls across one person's tests of a night. */
export const FDR_LEVEL = 0.05;
/** A finding must be at least a weak correlation to be worth a sentence (practical, not only statistical, size). */
export const MIN_ABS_RHO = 0.2;
/** Each side of the split needs this many days, or the difference of means says little. */
export const MIN_GROUP_DAYS = 5;
export const LAGS = [0, 1, 2] as const;

/**
 * Pairs related by how they are recorded, not by the person's life: tested at no lag (the same entry
 * gives both). Mood and energy come from one check-in; a training session is what makes its load; the
 * night's bedtime is part of its sleep.
 */
const SAME_RECORD: ReadonlySet<string> = new Set(
  [
    [InsightMetric.mood, InsightMetric.energy],
    [InsightMetric.trainingSessions, InsightMetric.trainingLoad],
    [InsightMetric.sleepHours, InsightMetric.bedtime],
  ].flatMap(([a, b]) => [`${a}|${b}`, `${b}|${a}`]),
);

/** One person-day: the date and each metric's value (null: unknown that day). */
export interface DayValues {
  date: string;
  values: Partial<Record<InsightMetric, number | null>>;
}

/** A test of one pair at one lag. */
export interface PairTest {
  condition: InsightMetric;
  outcome: InsightMetric;
  lag: number;
  rho: number;
  n: number;
  p: number;
  /** Filled by the Benjamini–Hochberg step. */
  q: number;
}

/** What a test needs to become a finding (kept beside the tests, read only for the few that pass). */
interface TestData {
  /** Day indices on the axis of the condition days (the outcome day is `lag` later). */
  days: number[];
  a: SortedSeries;
  b: SortedSeries;
}

export interface Finding {
  condition: InsightMetric;
  outcome: InsightMetric;
  lag: number;
  rho: number;
  n: number;
  p: number;
  q: number;
  threshold: number;
  effect: number;
  meanWith: number;
  meanWithout: number;
  conditionDays: number;
  days: string[];
  sentence: string;
}

export interface InsightResult {
  /** Every test run (pairs with enough days and varying values), each with its q. */
  tests: PairTest[];
  /** The findings worth a sentence, strongest first. */
  findings: Finding[];
}

/** Which pairs are tested at which lag: at lag 0 each unordered pair once; at lags 1 and 2 both directions. */
export function plannedPairs(metrics: readonly MetricDefinition[] = METRICS): { condition: InsightMetric; outcome: InsightMetric; lag: number }[] {
  const pairs: { condition: InsightMetric; outcome: InsightMetric; lag: number }[] = [];
  for (const lag of LAGS) {
    metrics.forEach((a, i) =>
      metrics.forEach((b, j) => {
        if (i === j || (lag === 0 && j < i)) return;
        if (lag === 0 && SAME_RECORD.has(`${a.key}|${b.key}`)) return;
        pairs.push({ condition: a.key, outcome: b.key, lag });
      }),
    );
  }
  return pairs;
}

/** The rounded threshold nearest the median of `x` that leaves MIN_GROUP_DAYS on both sides, or null. */
export function splitThreshold(metric: MetricDefinition, x: readonly number[]): number | null {
  const sorted = [...x].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  const round = (v: number) => Math.round(v / metric.step) * metric.step;
  const candidates = [...new Set([round(median), ...sorted.map(round)])].sort((a, b) => Math.abs(a - median) - Math.abs(b - median));
  for (const t of candidates) {
    const inGroup = x.filter((v) => (metric.lowIsCondition ? v <= t : v >= t)).length;
    if (inGroup >= MIN_GROUP_DAYS && x.length - inGroup >= MIN_GROUP_DAYS) return t;
  }
  return null;
}

const mean = (values: readonly number[]) => values.reduce((s, v) => s + v, 0) / values.length;

/** "q = 0.012", "q < 0.001". */
export function formatQ(q: number): string {
  if (q < 0.001) return 'q < 0.001';
  return `q = ${Number(q.toPrecision(2))}`;
}

function lead(metric: MetricDefinition, lag: number, clause: string): string {
  if (lag === 0) return metric.night ? `On days after ${clause}` : `On days ${clause}`;
  const what = metric.night ? 'a night' : 'a day';
  return lag === 1 ? `On the day after ${what} ${clause}` : `Two days after ${what} ${clause}`;
}

/** "On days after you sleep 7 h or more, your mood is 1.2 points higher (62 days, q = 0.01)". */
export function sentenceOf(condition: MetricDefinition, outcome: MetricDefinition, lag: number, threshold: number, effect: number, n: number, q: number): string {
  return `${lead(condition, lag, condition.condition(threshold))}, ${outcome.difference(effect)} (${n} days, ${formatQ(q)})`;
}

/**
 * Every planned pair tested on one person's days (Spearman, ties averaged, lags 0–2), q-values by
 * Benjamini–Hochberg across all of them, and the findings: q ≤ FDR_LEVEL, |rho| ≥ MIN_ABS_RHO, a split
 * at a plain threshold with MIN_GROUP_DAYS a side whose difference of means points the way rho does;
 * for each pair of metrics only its strongest lag (the others mostly echo it).
 */
export function findInsights(days: readonly DayValues[], metrics: readonly MetricDefinition[] = METRICS): InsightResult {
  if (!days.length) return { tests: [], findings: [] };
  // One dense axis of days from the first to the last (days since 1970), each metric a series on it.
  const numbers = days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 86_400_000);
  const first = Math.min(...numbers);
  const length = Math.max(...numbers) - first + 1;
  const dates = new Array<string>(length);
  days.forEach((day, i) => (dates[numbers[i]! - first] = day.date));
  const series = new Map<InsightMetric, SortedSeries>();
  for (const metric of metrics) {
    const values = new Float64Array(length).fill(NaN);
    days.forEach((day, i) => {
      const value = day.values[metric.key];
      if (value !== null && value !== undefined) values[numbers[i]! - first] = value;
    });
    const sorted = new SortedSeries(values);
    if (sorted.varies) series.set(metric.key, sorted);
  }
  const tests: PairTest[] = [];
  const data: TestData[] = [];
  for (const pair of plannedPairs(metrics)) {
    const a = series.get(pair.condition);
    const b = series.get(pair.outcome);
    if (!a || !b) continue;
    const paired = pairedSpearman(a, b, pair.lag, MIN_SAMPLE);
    if (!paired) continue;
    const n = paired.days.length;
    tests.push({ condition: pair.condition, outcome: pair.outcome, lag: pair.lag, rho: paired.rho, n, p: spearmanP(paired.rho, n), q: 1 });
    data.push({ days: paired.days, a, b });
  }
  const q = benjaminiHochberg(tests.map((t) => t.p));
  tests.forEach((test, i) => (test.q = q[i]!));

  const best = new Map<string, Finding>();
  tests.forEach((test, t) => {
    if (test.q > FDR_LEVEL || Math.abs(test.rho) < MIN_ABS_RHO) return;
    const condition = metrics.find((m) => m.key === test.condition)!;
    const outcome = metrics.find((m) => m.key === test.outcome)!;
    const { days: used, a, b } = data[t]!;
    const x = used.map((d) => a.values[d]!);
    const y = used.map((d) => b.values[d + test.lag]!);
    const threshold = splitThreshold(condition, x);
    if (threshold === null) return;
    const inGroup = (v: number) => (condition.lowIsCondition ? v <= threshold : v >= threshold);
    const withValues = y.filter((_, i) => inGroup(x[i]!));
    const withoutValues = y.filter((_, i) => !inGroup(x[i]!));
    const effect = mean(withValues) - mean(withoutValues);
    // A low-is-condition split (early bedtime) points the other way from the correlation's sign.
    const expected = condition.lowIsCondition ? -Math.sign(test.rho) : Math.sign(test.rho);
    if (effect === 0 || Math.sign(effect) !== expected) return;
    const finding: Finding = {
      condition: test.condition,
      outcome: test.outcome,
      lag: test.lag,
      rho: test.rho,
      n: test.n,
      p: test.p,
      q: test.q,
      threshold,
      effect,
      meanWith: mean(withValues),
      meanWithout: mean(withoutValues),
      conditionDays: withValues.length,
      days: used.map((d) => dates[d]!),
      sentence: sentenceOf(condition, outcome, test.lag, threshold, effect, test.n, test.q),
    };
    const key = [test.condition, test.outcome].sort().join('|');
    const kept = best.get(key);
    if (!kept || finding.q < kept.q || (finding.q === kept.q && Math.abs(finding.rho) > Math.abs(kept.rho))) best.set(key, finding);
  });
  const findings = [...best.values()].sort((a, b) => a.q - b.q || Math.abs(b.rho) - Math.abs(a.rho));
  return { tests, findings };
}
