import { addDays, mondayOf } from '../core/dates.js';
import { HabitDayMark, HabitDayState, HabitStreakUnit } from './habit-enums.js';
import { STREAK_FREEZES_PER_MONTH, STREAK_HISTORY_DAYS } from './habit-limits.js';
import { datesBetween, dueCheck, firstOfMonth, isQuota, periodOf, streakUnit, type HabitRules } from './habit-schedule.js';

/**
 * The rules of a habit's days and streaks, as pure functions of what the reads load (habit.queries.ts):
 * the day and week states and the streak are computed from the same history, so they always agree.
 */

/** What a habit's days hold, for the dates a read loaded. */
export interface HabitHistory {
  /** The sum of the entries' values per date. */
  values: ReadonlyMap<string, number>;
  /** The habit's SKIP and REST marks per date. */
  marks: ReadonlyMap<string, HabitDayMark>;
  /** The person's rest days: days in minimum mode and the days of stress weeks (the planning hub's). */
  restDates: ReadonlySet<string>;
}

export interface HabitDayView {
  date: string;
  state: HabitDayState;
  value: number;
  /** Quota habits: the days of the date's period whose entries reach the target. */
  periodDone: number | null;
  /** Quota habits: the days the period needs (the quota, fewer when rest days leave too few days). */
  periodRequired: number | null;
}

export interface StreakView {
  unit: HabitStreakUnit;
  current: number;
  /** The longest within the history walked (the service adds the longest ever stored). */
  longest: number;
  /** Freezes spent in today's month (a freeze keeps a streak over one missed day, week or month). */
  freezesUsedThisMonth: number;
  freezesLeftThisMonth: number;
}

const monthOf = (date: string) => date.slice(0, 7);

/** The first date whose history a streak read needs (whole periods for quotas). */
export function historyStart(today: string): string {
  const from = addDays(today, -STREAK_HISTORY_DAYS);
  const monday = mondayOf(from);
  const first = firstOfMonth(from);
  return monday < first ? monday : first;
}

const isRest = (history: HabitHistory, date: string) => history.marks.has(date) || history.restDates.has(date);

/** A quota period's count: days done, and days needed (rest days and days before the start lower it). */
function periodCount(habit: HabitRules, history: HabitHistory, start: string, end: string) {
  let available = 0;
  let done = 0;
  let resting = 0;
  for (const date of datesBetween(start < habit.startDate ? habit.startDate : start, end)) {
    available++;
    if ((history.values.get(date) ?? 0) >= habit.target) done++;
    else if (isRest(history, date)) resting++;
  }
  const required = Math.max(0, Math.min(habit.timesPerPeriod ?? 1, available - resting));
  return { done, required };
}

/** The state of a habit on each of `dates` (ascending), seen on `today`. */
export function dayViews(habit: HabitRules, history: HabitHistory, dates: readonly string[], today: string): HabitDayView[] {
  if (!dates.length) return [];
  const due = dueCheck(habit, dates[0]!, dates[dates.length - 1]!);
  const periods = new Map<string, { done: number; required: number; end: string }>();
  return dates.map((date) => {
    const value = history.values.get(date) ?? 0;
    let period: { done: number; required: number; end: string } | null = null;
    if (isQuota(habit)) {
      const { start, end } = periodOf(habit, date);
      period = periods.get(start) ?? { ...periodCount(habit, history, start, end), end };
      periods.set(start, period);
    }
    const view = (state: HabitDayState): HabitDayView => ({ date, state, value, periodDone: period?.done ?? null, periodRequired: period?.required ?? null });
    if (date < habit.startDate) return view(HabitDayState.NOT_DUE);
    if (value >= habit.target) return view(HabitDayState.DONE);
    const mark = history.marks.get(date);
    if (mark === HabitDayMark.SKIP) return view(HabitDayState.SKIPPED);
    if (mark === HabitDayMark.REST) return view(HabitDayState.REST);
    if (!period && !due(date)) return view(HabitDayState.NOT_DUE);
    if (history.restDates.has(date)) return view(HabitDayState.REST);
    if (value > 0) return view(HabitDayState.PARTIAL);
    if (period) {
      const open = period.done < period.required && period.end >= today && date >= today;
      return view(open ? HabitDayState.PENDING : HabitDayState.NOT_DUE);
    }
    return view(date < today ? HabitDayState.MISSED : HabitDayState.PENDING);
  });
}

/**
 * The current and longest streak on `today`, walking at most STREAK_HISTORY_DAYS back.
 *
 * - Day-based schedules: each due day done adds one; a due day marked SKIP or REST, or a rest day
 *   (minimum mode, a stress week), neither adds nor breaks; today not yet done is still open; a missed
 *   due day spends a freeze of its month when one is left (and a streak runs), else breaks the streak.
 * - Quotas: each week (Monday to Sunday) or month whose done days reach its requirement adds one. The
 *   requirement is the quota, lowered when the period's rest days (marks, minimum mode, stress week)
 *   and the days before the habit's start leave fewer days: a period with none left neither adds nor
 *   breaks. The running period counts once met, else is still open. A failed period spends a freeze
 *   of the month it ends in, else breaks the streak.
 */
export function streakOf(habit: HabitRules, history: HabitHistory, today: string, freezesPerMonth = STREAK_FREEZES_PER_MONTH): StreakView {
  const spent = new Map<string, number>();
  let current = 0;
  let longest = 0;
  const miss = (month: string) => {
    const used = spent.get(month) ?? 0;
    if (current > 0 && used < freezesPerMonth) spent.set(month, used + 1);
    else current = 0;
  };
  const hit = () => {
    current++;
    if (current > longest) longest = current;
  };
  const from = historyStart(today);
  if (isQuota(habit)) {
    for (let { start, end } = periodOf(habit, from < habit.startDate ? habit.startDate : from); start <= today; { start, end } = periodOf(habit, addDays(end, 1))) {
      const { done, required } = periodCount(habit, history, start, end);
      if (required === 0) continue;
      if (done >= required) hit();
      else if (end < today) miss(monthOf(end));
    }
  } else {
    const earliest = addDays(today, -STREAK_HISTORY_DAYS);
    const first = habit.startDate > earliest ? habit.startDate : earliest;
    const due = dueCheck(habit, first, today);
    for (const date of datesBetween(first, today)) {
      if (!due(date)) continue;
      if ((history.values.get(date) ?? 0) >= habit.target) hit();
      else if (isRest(history, date) || date === today) continue;
      else miss(monthOf(date));
    }
  }
  const used = spent.get(monthOf(today)) ?? 0;
  return { unit: streakUnit(habit), current, longest, freezesUsedThisMonth: used, freezesLeftThisMonth: freezesPerMonth - used };
}
