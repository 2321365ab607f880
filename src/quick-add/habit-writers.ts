import { HabitService } from '../habits/habit.service.js';
import { HabitKind, HabitSchedule } from '../habits/habit-enums.js';
import { matchName } from './names.js';
import type { KindWriter } from './writer.js';

type F = Record<string, any>;

const ISO_WEEKDAYS: Readonly<Record<string, number>> = { MO: 1, TU: 2, WE: 3, TH: 4, FR: 5, SA: 6, SU: 7 };

/**
 * A habit's schedule from what the line said: a quota → TIMES_PER_WEEK/MONTH; `FREQ=DAILY` → DAILY;
 * a plain weekly rule on given days → WEEKDAYS; any other rule (an interval, a monthly day) → RRULE
 * through the recurrence core.
 */
export function habitSchedule(f: F): F {
  if (f.quota) return { schedule: f.quota.per === 'week' ? HabitSchedule.TIMES_PER_WEEK : HabitSchedule.TIMES_PER_MONTH, timesPerPeriod: f.quota.times };
  const rule = f.recurrence as string;
  if (rule === 'FREQ=DAILY') return { schedule: HabitSchedule.DAILY };
  const weekly = /^FREQ=WEEKLY;BYDAY=([A-Z,]+)$/.exec(rule);
  if (weekly) return { schedule: HabitSchedule.WEEKDAYS, weekdays: weekly[1]!.split(',').map((d) => ISO_WEEKDAYS[d]!) };
  return { schedule: HabitSchedule.RRULE, recurrence: rule };
}

export const habitWriter: KindWriter = {
  type: 'Habit',
  resolve: async (draft) => ({ fields: { ...draft.fields, ...habitSchedule(draft.fields) }, misses: [] }),
  async write(f, scope) {
    return scope.service(HabitService).create(scope.userId, {
      name: f.name,
      schedule: f.schedule,
      weekdays: f.weekdays ?? null,
      timesPerPeriod: f.timesPerPeriod ?? null,
      recurrence: f.recurrence && f.schedule === HabitSchedule.RRULE ? f.recurrence : null,
    });
  },
};

export const habitEntryWriter: KindWriter = {
  type: 'HabitEntry',
  async resolve(draft, scope) {
    const name = draft.fields.habitName as string;
    const habits = scope.service(HabitService);
    // The person's own active habits only: another person's habit of the same name is never read.
    const exact = await habits.findByName(scope.userId, name);
    const list = exact ? [exact] : (await habits.list(scope.userId, { page: 1, limit: 100 })).items;
    const match = exact ? { found: exact } : matchName(list, name);
    if (!match.found) return { fields: draft.fields, misses: [{ field: 'habitName', name, candidates: match.candidates.map((h) => ({ id: h.id, name: h.name })) }] };
    const habit = match.found;
    const assumptions: string[] = [];
    let value = draft.fields.value as number | undefined;
    // A done/not-done habit takes no value; a count, duration or amount takes the one said (default 1 for a count).
    if (habit.kind === HabitKind.CHECK) {
      if (value !== undefined) assumptions.push(`"${habit.name}" is done or not: ${value} ${draft.fields.unit ?? ''} is not recorded`.trim());
      value = undefined;
    }
    return { fields: { ...draft.fields, habitId: habit.id, habitName: habit.name, habitKind: habit.kind, ...(value !== undefined ? { value } : { value: undefined }) }, misses: [], assumptions };
  },
  async write(f, scope) {
    return scope.service(HabitService).logEntry(scope.userId, { habitId: f.habitId, date: f.date, value: f.value ?? null });
  },
};
