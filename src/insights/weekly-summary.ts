import { addDays, mondayOf } from '../core/dates.js';
import type { AggregateRow } from './insights.queries.js';
import { METRICS, type InsightMetric, type MetricDefinition } from './metrics.js';

/** Days back a streak is counted at most (a longer one says "90 days in a row" and more). */
export const STREAK_LOOKBACK_DAYS = 90;
/** A streak is named from this many days on. */
export const STREAK_MIN_DAYS = 3;
/** A measure needs this many logged days in both weeks to say it rose or fell. */
export const MIN_LOGGED_DAYS = 2;
/** Below this relative change (and the metric's own minimum) a week is "steady". */
export const RELATIVE_CHANGE = 0.1;

export type TrendDirection = 'rose' | 'fell' | 'steady' | 'unknown';

export interface MetricChange {
  metric: InsightMetric;
  label: string;
  /** Daily mean this week (through `through`); null when not logged. */
  thisWeek: number | null;
  /** Daily mean over the same weekdays of the week before. */
  previousWeek: number | null;
  change: number | null;
  direction: TrendDirection;
  daysLogged: number;
  /** What rose or fell, in a sentence; null when steady or unknown. */
  sentence: string | null;
}

export interface Streak {
  metric: InsightMetric;
  label: string;
  days: number;
  /** The streak's last day. */
  through: string;
  sentence: string;
}

export interface WeeklySummary {
  weekStart: string;
  weekEnd: string;
  /** The last day summarised: the week's Sunday, or today in the current week. */
  through: string;
  metrics: MetricChange[];
  rose: InsightMetric[];
  fell: InsightMetric[];
  streaks: Streak[];
  sentences: string[];
}

/** What the summary reads: from the Monday a week before `date`'s week (minus the streak look-back) to its Sunday or today. */
export function summaryRange(date: string, today: string): { from: string; to: string; weekStart: string; weekEnd: string; through: string } {
  const weekStart = mondayOf(date);
  const weekEnd = addDays(weekStart, 6);
  const through = weekEnd < today ? weekEnd : today < weekStart ? weekStart : today;
  return { from: addDays(through, -STREAK_LOOKBACK_DAYS), to: through, weekStart, weekEnd, through };
}

/** The daily mean of `metric` over `from..to`: a measure over its logged days, a count over every day (0 when absent). */
function dailyMean(metric: MetricDefinition, byDate: ReadonlyMap<string, AggregateRow>, from: string, to: string): { mean: number | null; logged: number } {
  let sum = 0;
  let logged = 0;
  let days = 0;
  for (let date = from; date <= to; date = addDays(date, 1)) {
    days++;
    const value = byDate.get(date)?.values[metric.key];
    if (value === null || value === undefined) continue;
    sum += value;
    logged++;
  }
  // A count that stayed 0 both weeks is a domain the person does not use: not named.
  if (metric.kind === 'count') return { mean: sum > 0 ? sum / days : null, logged };
  return { mean: logged ? sum / logged : null, logged };
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function changeSentence(metric: MetricDefinition, change: MetricChange): string {
  const from = metric.format(change.previousWeek!);
  const to = metric.format(change.thisWeek!);
  const verb = metric.lowIsCondition ? (change.direction === 'rose' ? 'moved later' : 'moved earlier') : change.direction;
  const per = metric.kind === 'count' ? ' a day' : metric.night ? ' a night' : ' on average';
  return `${capital(metric.label)} ${verb} from ${from} to ${to}${per} (against the same days of the week before).`;
}

/** Whether `metric` counts for a streak on `row`'s day: logged (a measure) or more than 0 (a count). */
function holds(metric: MetricDefinition, row: AggregateRow | undefined): boolean {
  const value = row?.values[metric.key];
  if (value === null || value === undefined) return false;
  return metric.kind === 'measure' || value > 0;
}

/**
 * The week of `date` against the same weekdays of the week before, metric by metric (what rose, what
 * fell), and the streaks alive at its last day (a streak still counts when only `through` itself is
 * missing, in the current week: the day is not over). `rows` are the person-days of summaryRange.
 */
export function weeklySummary(rows: readonly AggregateRow[], date: string, today: string, metrics: readonly MetricDefinition[] = METRICS): WeeklySummary {
  const range = summaryRange(date, today);
  const byDate = new Map(rows.map((row) => [row.date, row]));
  const changes: MetricChange[] = [];
  for (const metric of metrics) {
    const now = dailyMean(metric, byDate, range.weekStart, range.through);
    const before = dailyMean(metric, byDate, addDays(range.weekStart, -7), addDays(range.through, -7));
    let direction: TrendDirection = 'unknown';
    let change: number | null = null;
    const enough = metric.kind === 'count' ? now.mean !== null || before.mean !== null : now.logged >= MIN_LOGGED_DAYS && before.logged >= MIN_LOGGED_DAYS;
    if (enough) {
      const thisWeek = now.mean ?? 0;
      const previous = before.mean ?? 0;
      change = thisWeek - previous;
      const needed = Math.max(metric.minChange, RELATIVE_CHANGE * Math.abs(previous));
      direction = Math.abs(change) < needed ? 'steady' : change > 0 ? 'rose' : 'fell';
      const entry: MetricChange = { metric: metric.key, label: metric.label, thisWeek, previousWeek: previous, change, direction, daysLogged: now.logged, sentence: null };
      if (direction === 'rose' || direction === 'fell') entry.sentence = changeSentence(metric, entry);
      changes.push(entry);
    } else if (metric.kind === 'measure' && (now.logged || before.logged)) {
      changes.push({ metric: metric.key, label: metric.label, thisWeek: now.mean, previousWeek: before.mean, change, direction, daysLogged: now.logged, sentence: null });
    }
  }
  const streaks: Streak[] = [];
  for (const metric of metrics) {
    let end = range.through;
    if (range.through === today && !holds(metric, byDate.get(end))) end = addDays(end, -1);
    let days = 0;
    for (let day = end; days < STREAK_LOOKBACK_DAYS && holds(metric, byDate.get(day)); day = addDays(day, -1)) days++;
    if (days >= STREAK_MIN_DAYS) {
      streaks.push({ metric: metric.key, label: metric.label, days, through: end, sentence: `You ${metric.streak} ${days} days in a row${days >= STREAK_LOOKBACK_DAYS ? ' or more' : ''}.` });
    }
  }
  streaks.sort((a, b) => b.days - a.days);
  return {
    weekStart: range.weekStart,
    weekEnd: range.weekEnd,
    through: range.through,
    metrics: changes,
    rose: changes.filter((c) => c.direction === 'rose').map((c) => c.metric),
    fell: changes.filter((c) => c.direction === 'fell').map((c) => c.metric),
    streaks,
    sentences: [...changes.flatMap((c) => (c.sentence ? [c.sentence] : [])), ...streaks.map((s) => s.sentence)],
  };
}

/**
 * The week in one line for a notification (the evening review): "This week: sleep up, steps down.
 * Streak: logged your mood 12 days in a row." Null when nothing moved and no streak runs.
 */
export function weekLine(summary: WeeklySummary, metrics: readonly MetricDefinition[] = METRICS): string | null {
  const byKey = new Map(metrics.map((m) => [m.key, m]));
  const moved = summary.metrics
    .filter((m) => m.direction === 'rose' || m.direction === 'fell')
    .map((m) => {
      const later = byKey.get(m.metric)?.lowIsCondition;
      return `${m.label} ${m.direction === 'rose' ? (later ? 'later' : 'up') : later ? 'earlier' : 'down'}`;
    });
  const streak = summary.streaks[0];
  const parts = [
    moved.length ? `This week: ${moved.join(', ')}.` : null,
    streak ? `Streak: ${byKey.get(streak.metric)?.streak ?? streak.label} ${streak.days} days in a row.` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(' ') : null;
}
