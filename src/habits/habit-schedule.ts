import { addDays, isoWeekday, mondayOf } from '../core/dates.js';
import { occurrencesBetween, type Recurrence } from '../core/recurrence/recurrence.js';
import { HabitSchedule, HabitStreakUnit } from './habit-enums.js';

/** What the schedule rules read of a habit. */
export interface HabitRules {
  schedule: HabitSchedule;
  weekdays: readonly number[];
  timesPerPeriod?: number | null;
  recurrence?: string | null;
  startDate: string;
  target: number;
}

export const isQuota = (habit: Pick<HabitRules, 'schedule'>) =>
  habit.schedule === HabitSchedule.TIMES_PER_WEEK || habit.schedule === HabitSchedule.TIMES_PER_MONTH;

export function streakUnit(habit: Pick<HabitRules, 'schedule'>): HabitStreakUnit {
  if (habit.schedule === HabitSchedule.TIMES_PER_WEEK) return HabitStreakUnit.WEEK;
  if (habit.schedule === HabitSchedule.TIMES_PER_MONTH) return HabitStreakUnit.MONTH;
  return HabitStreakUnit.DAY;
}

/**
 * Whether a day-based habit is due on a date of `from`..`to` (quota habits are judged per period:
 * `periodOf`). Nothing is due before the habit's start date. An RRULE is expanded once for the range
 * (the recurrence core, bounded), not once per date.
 */
export function dueCheck(habit: HabitRules, from: string, to: string): (date: string) => boolean {
  const started = (date: string) => date >= habit.startDate;
  switch (habit.schedule) {
    case HabitSchedule.DAILY:
      return started;
    case HabitSchedule.WEEKDAYS: {
      const days = new Set(habit.weekdays);
      return (date) => started(date) && days.has(isoWeekday(date));
    }
    case HabitSchedule.RRULE: {
      if (!habit.recurrence || to < from) return () => false;
      const dates = new Set(occurrencesBetween(recurrenceOf(habit), from, to));
      return (date) => dates.has(date);
    }
    default:
      return () => false;
  }
}

/** `dueCheck` for one date. */
export function isDueOn(habit: HabitRules, date: string): boolean {
  return dueCheck(habit, date, date)(date);
}

export function recurrenceOf(habit: HabitRules): Recurrence {
  return { rule: habit.recurrence!, start: habit.startDate };
}

export const firstOfMonth = (date: string) => `${date.slice(0, 8)}01`;
export const lastOfMonth = (date: string) => addDays(firstOfMonth(addDays(firstOfMonth(date), 32)), -1);

/** The quota period holding `date`: its Monday-to-Sunday week or its calendar month. */
export function periodOf(habit: Pick<HabitRules, 'schedule'>, date: string): { start: string; end: string } {
  if (habit.schedule === HabitSchedule.TIMES_PER_MONTH) return { start: firstOfMonth(date), end: lastOfMonth(date) };
  const start = mondayOf(date);
  return { start, end: addDays(start, 6) };
}

const BYDAY = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/**
 * A habit as a calendar series (the agenda feed): its dates as an RRULE from its start. A quota has no
 * fixed days: it is one all-day reminder on the Monday of each week (the 1st of each month), its title
 * saying the quota.
 */
export function calendarRuleOf(habit: HabitRules & { name: string }): { rule: string; start: string; title: string } {
  switch (habit.schedule) {
    case HabitSchedule.WEEKDAYS:
      return { rule: `FREQ=WEEKLY;BYDAY=${habit.weekdays.map((d) => BYDAY[d - 1]).join(',')}`, start: habit.startDate, title: habit.name };
    case HabitSchedule.TIMES_PER_WEEK:
      return { rule: 'FREQ=WEEKLY;BYDAY=MO', start: mondayOf(habit.startDate), title: `${habit.name} (${habit.timesPerPeriod}× this week)` };
    case HabitSchedule.TIMES_PER_MONTH:
      return { rule: 'FREQ=MONTHLY;BYMONTHDAY=1', start: firstOfMonth(habit.startDate), title: `${habit.name} (${habit.timesPerPeriod}× this month)` };
    case HabitSchedule.RRULE:
      return { rule: habit.recurrence!, start: habit.startDate, title: habit.name };
    default:
      return { rule: 'FREQ=DAILY', start: habit.startDate, title: habit.name };
  }
}

/** Days from `from` to `to`, both included (empty when `to` is earlier). */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) dates.push(d);
  return dates;
}
