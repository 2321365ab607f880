import { describe, expect, it } from 'vitest';
import { findInsights, FDR_LEVEL, MIN_SAMPLE, plannedPairs, splitThreshold, type DayValues } from './find-insights.js';
import { InsightMetric, metricOf } from './metrics.js';
import { averageRanks } from './stats/ranks.js';
import { benjaminiHochberg } from './stats/benjamini-hochberg.js';
import { spearman } from './stats/spearman.js';
import { studentTTwoSided } from './stats/student-t.js';
import { seeded } from '../../test/support/seeded-random.js';

/**
 * The statistics checked against an independent implementation: every expected number below was
 * computed with SciPy 1.17.1 (`scipy.stats.spearmanr`, `scipy.stats.rankdata`, `scipy.stats.t.cdf`,
 * `scipy.stats.false_discovery_control(p, method='bh')`) on the same data and written in as numbers.
 */
const sleep = [6.5, 7.0, 7.5, 6.0, 8.0, 7.0, 6.5, 7.5, 8.5, 5.5, 7.0, 6.0, 7.5, 8.0, 6.5, 7.0, 9.0, 5.0, 6.5, 7.5, 8.0, 6.0, 7.0, 7.5, 6.5, 8.0, 7.0, 5.5, 6.0, 7.5];
const mood = [6, 7, 7, 5, 8, 6, 6, 8, 8, 4, 7, 5, 7, 9, 5, 6, 9, 4, 6, 7, 8, 6, 7, 6, 5, 8, 7, 5, 5, 8];
const steps = [8200, 10400, 6100, 12000, 7300, 9100, 5600, 11800, 7000, 9900, 6400, 10100, 8800, 5200, 12500, 7600, 9400, 6800, 11200, 8100, 5900, 10700, 7700, 9300, 6600, 12100, 8400, 7100, 10900, 6300];

/** Relative closeness for p-values far in the tail (an absolute tolerance would accept anything tiny). */
function expectRelative(actual: number, expected: number, tolerance = 1e-9): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance * Math.abs(expected));
}

describe('insight statistics against SciPy', () => {
  it('ranks ties by their average rank (scipy.stats.rankdata)', () => {
    expect(averageRanks([10, 20, 20, 30, 20, 5])).toEqual([2, 4, 4, 6, 4, 1]);
  });

  it("Student's t two-sided tail (2·t.cdf(-|t|, df))", () => {
    expectRelative(studentTTwoSided(2.5, 10), 0.03144684423660882);
    expectRelative(studentTTwoSided(-8.0, 363), 1.6892685096484716e-14, 1e-7);
    expectRelative(studentTTwoSided(0.3, 3), 0.783763292039919);
  });

  it('Spearman rho and p with ties (scipy.stats.spearmanr)', () => {
    const cases: [number[], number[], number, number][] = [
      [sleep, mood, 0.9209065219105768, 5.633351238852405e-13],
      [sleep, steps, -0.24216330963875018, 0.19728884803428687],
      [mood, steps, -0.26010675272307987, 0.16508946214723444],
      [sleep.slice(0, -1), mood.slice(1), -0.32808722532813067, 0.08229000511072346], // lag 1
    ];
    for (const [x, y, rho, p] of cases) {
      const result = spearman(x, y)!;
      expect(result.rho).toBeCloseTo(rho, 12);
      expectRelative(result.p, p, 1e-7);
      expect(result.n).toBe(x.length);
    }
  });

  it('Benjamini–Hochberg q-values (scipy.stats.false_discovery_control, method bh), ties and order kept', () => {
    const p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.324, 0.4262, 0.5719, 0.6528, 0.759, 1.0, 0.0344];
    const expected = [
      0.0016, 0.0032, 0.010133333333333333, 0.038, 0.06115555555555555, 0.06115555555555555, 0.06115555555555555, 0.06115555555555555, 0.07344,
      0.4712727272727273, 0.5682666666666667, 0.7038769230769231, 0.7460571428571429, 0.8096, 1.0, 0.06115555555555555,
    ];
    benjaminiHochberg(p).forEach((q, i) => expect(q).toBeCloseTo(expected[i]!, 14));
  });

  it('answers no correlation for a constant series or too few pairs', () => {
    expect(spearman([1, 1, 1, 1], [1, 2, 3, 4])).toBeNull();
    expect(spearman([1, 2], [2, 1])).toBeNull();
    expect(spearman([1, 2, 3, 4], [2, 4, 6, 8])).toMatchObject({ rho: 1, p: 0 });
  });
});


const dateOf = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);

/**
 * A year of one person: sleep drives the mood of the same day (planted: +0.8 a point per hour over 7,
 * with noise), steps drive the next day's energy (planted, lag 1); water, reading, spending and tasks
 * are independent noise. Mood is rounded to whole points, sleep to half hours (ties, as people log).
 */
function plantedYear(seed: number, days = 365): DayValues[] {
  const next = seeded(seed);
  const noise = () => (next() + next() + next() - 1.5) * 2; // roughly normal, sd ≈ 1
  const rows: DayValues[] = [];
  let yesterdaySteps = 8000;
  for (let i = 0; i < days; i++) {
    const sleepHours = Math.round((7 + noise() * 0.8) * 2) / 2;
    const stepsToday = Math.round(8000 + noise() * 2500);
    rows.push({
      date: dateOf(i),
      values: {
        [InsightMetric.sleepHours]: sleepHours,
        [InsightMetric.mood]: Math.max(1, Math.min(10, Math.round(6 + (sleepHours - 7) * 0.8 + noise()))),
        [InsightMetric.energy]: Math.max(1, Math.min(10, Math.round(6 + (yesterdaySteps - 8000) / 1500 + noise()))),
        [InsightMetric.steps]: stepsToday,
        [InsightMetric.water]: Math.round(2000 + noise() * 400),
        [InsightMetric.readingMinutes]: next() < 0.5 ? 0 : Math.round(20 + next() * 30),
        [InsightMetric.spending]: Math.round(next() * 60),
        [InsightMetric.tasksDone]: Math.floor(next() * 6),
        [InsightMetric.tasksDeferred]: Math.floor(next() * 3),
      },
    });
    yesterdaySteps = stepsToday;
  }
  return rows;
}

describe('findInsights on generated data', () => {
  it('finds the planted relations and reports them in plain sentences with their numbers and days', () => {
    const { tests, findings } = findInsights(plantedYear(42));
    expect(tests.length).toBeGreaterThan(100);
    const sleepMood = findings.find((f) => f.condition === InsightMetric.sleepHours && f.outcome === InsightMetric.mood);
    expect(sleepMood).toMatchObject({ lag: 0 });
    expect(sleepMood!.q).toBeLessThanOrEqual(FDR_LEVEL);
    expect(sleepMood!.rho).toBeGreaterThan(0.3);
    expect(sleepMood!.effect).toBeGreaterThan(0.5);
    expect(sleepMood!.days).toHaveLength(sleepMood!.n);
    expect(sleepMood!.sentence).toMatch(/^On days after you sleep \d+(\.5)? h or more, your mood is \d+(\.\d)? points? higher \(365 days, q < 0\.001\)$/);

    const stepsEnergy = findings.find((f) => f.condition === InsightMetric.steps && f.outcome === InsightMetric.energy);
    expect(stepsEnergy).toMatchObject({ lag: 1 });
    expect(stepsEnergy!.sentence).toMatch(/^On the day after a day you walk [\d,]+ steps or more, your energy is [\d.]+ points? higher \(364 days, q/);
    // Its days are the condition days: every one has a next day in the data.
    expect(stepsEnergy!.days[0]).toBe(dateOf(0));
    expect(stepsEnergy!.days.at(-1)).toBe(dateOf(363));
  });

  it('surfaces no relation between independent measures at the FDR level, over many generated people', () => {
    // The planted pairs (and what follows from them: sleep → energy via nothing) are excluded; among
    // the ~400 tests of null pairs per person, BH at 5 % lets through (almost) none.
    const planted = new Set(['sleepHours|mood', 'steps|energy', 'mood|sleepHours', 'energy|steps']);
    let nullFindings = 0;
    let nullTests = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const { tests, findings } = findInsights(plantedYear(seed));
      nullTests += tests.filter((t) => !planted.has(`${t.condition}|${t.outcome}`)).length;
      nullFindings += findings.filter((f) => !planted.has(`${f.condition}|${f.outcome}`)).length;
    }
    expect(nullTests).toBeGreaterThan(20 * 150);
    // Unadjusted p < 0.05 would give ~5 % of 3,000+ tests (150+) chance "findings".
    expect(nullFindings).toBeLessThanOrEqual(2);
  });

  it('tests nothing below the minimum sample and nothing constant', () => {
    const short = plantedYear(7, MIN_SAMPLE - 1);
    expect(findInsights(short).tests).toEqual([]);
    const enough = plantedYear(7, MIN_SAMPLE);
    expect(findInsights(enough).tests.every((t) => t.n === MIN_SAMPLE || t.n === MIN_SAMPLE - t.lag)).toBe(true);
    const flat = plantedYear(7, 60).map((d) => ({ ...d, values: { ...d.values, [InsightMetric.water]: 2000 } }));
    expect(findInsights(flat).tests.some((t) => t.condition === InsightMetric.water || t.outcome === InsightMetric.water)).toBe(false);
  });

  it('tests each same-day pair once and leaves out pairs one record makes', () => {
    const pairs = plannedPairs();
    const sameDay = pairs.filter((p) => p.lag === 0).map((p) => [p.condition, p.outcome].sort().join('|'));
    expect(new Set(sameDay).size).toBe(sameDay.length);
    expect(sameDay).not.toContain([InsightMetric.energy, InsightMetric.mood].sort().join('|'));
    expect(pairs.filter((p) => p.lag === 1).some((p) => p.condition === InsightMetric.mood && p.outcome === InsightMetric.energy)).toBe(true);
  });

  it('splits at a plain threshold near the median with five days a side', () => {
    expect(splitThreshold(metricOf(InsightMetric.sleepHours), [6, 6.5, 7, 7, 7.5, 7.5, 8, 8, 6, 6.5, 5.5, 7.2])).toBe(7);
    // Mostly zero: the split moves to the first value that leaves five days a side.
    expect(splitThreshold(metricOf(InsightMetric.trainingSessions), [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 1])).toBe(1);
    expect(splitThreshold(metricOf(InsightMetric.trainingSessions), [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1])).toBeNull();
  });
});
