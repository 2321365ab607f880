import type { AggregateRow } from './insights.queries.js';
import { METRICS, type InsightMetric, type MetricDefinition } from './metrics.js';

export interface DayValue {
  metric: InsightMetric;
  label: string;
  value: number;
  /** As the sentences write it: "7.5 h", "9,120 steps", "23:10". */
  text: string;
}

export interface LastYearDay {
  date: string;
  /** The same calendar date a year before (28 February for a 29 February). */
  lastYearDate: string;
  values: DayValue[];
  spending: { category: string; amount: number }[];
  /** "A year ago today: sleep 7.5 h, mood 8/10, reading 30 min." — null when nothing was logged. */
  sentence: string | null;
}

/** `date` a year earlier; 29 February becomes 28 February. */
export function yearBefore(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(year - 1, month - 1, day));
  if (last.getUTCMonth() !== month - 1) last.setUTCDate(0); // 29 Feb → 28 Feb
  return last.toISOString().slice(0, 10);
}

/** The largest spending categories a year-ago day shows (a day's transactions may name many). */
export const SPENDING_SHOWN = 20;

/** What a year-ago day held: each metric logged (counts above 0), the spending by category. */
export function lastYearDay(date: string, row: AggregateRow | undefined, metrics: readonly MetricDefinition[] = METRICS): LastYearDay {
  const lastYearDate = yearBefore(date);
  const values: DayValue[] = [];
  for (const metric of metrics) {
    const value = row?.values[metric.key];
    if (value === null || value === undefined || (metric.kind === 'count' && value <= 0)) continue;
    values.push({ metric: metric.key, label: metric.label, value, text: metric.format(value) });
  }
  const spending = Object.entries(row?.spendingByCategory ?? {})
    .map(([category, amount]) => ({ category, amount: Number(amount) }))
    .filter((s) => s.amount > 0)
    .sort((a, b) => b.amount - a.amount || a.category.localeCompare(b.category))
    .slice(0, SPENDING_SHOWN);
  const sentence = values.length ? `A year ago (${lastYearDate}): ${values.map((v) => `${v.label} ${v.text}`).join(', ')}.` : null;
  return { date, lastYearDate, values, spending, sentence };
}
