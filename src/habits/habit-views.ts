import { addDays, mondayOf } from '../core/dates.js';
import { dayViews, type HabitHistory } from './habit-progress.js';
import { firstOfMonth, lastOfMonth } from './habit-schedule.js';
import type { Habit } from './habit.entity.js';
import type { HabitDay, HabitWeek } from './habit.types.js';

/** The dates a state read of `from`..`to` needs: whole weeks and months around them (quota periods). */
export function stateRange(from: string, to: string): { from: string; to: string } {
  const monday = mondayOf(from);
  const first = firstOfMonth(from);
  const sunday = addDays(mondayOf(to), 6);
  const last = lastOfMonth(to);
  return { from: monday < first ? monday : first, to: sunday > last ? sunday : last };
}

const EMPTY: HabitHistory = { values: new Map(), marks: new Map(), restDates: new Set() };

/** Each habit on `date`. */
export function habitDays(habits: readonly Habit[], histories: ReadonlyMap<string, HabitHistory>, date: string, today: string): HabitDay[] {
  return habits.map((habit) => {
    const history = histories.get(habit.id) ?? EMPTY;
    const [view] = dayViews(habit, history, [date], today);
    return { habitId: habit.id, habit, target: habit.target, mark: history.marks.get(date) ?? null, ...view! };
  });
}

/** Each habit over the week starting `monday`. */
export function habitWeeks(habits: readonly Habit[], histories: ReadonlyMap<string, HabitHistory>, monday: string, today: string): HabitWeek[] {
  const dates = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  return habits.map((habit) => {
    const history = histories.get(habit.id) ?? EMPTY;
    const days = dayViews(habit, history, dates, today).map((view) => ({ habitId: habit.id, habit, target: habit.target, mark: history.marks.get(view.date) ?? null, ...view }));
    return { habitId: habit.id, habit, days, done: days.filter((d) => d.state === 'DONE').length };
  });
}
