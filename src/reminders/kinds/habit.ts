import { addDays } from '../../core/dates.js';
import { NotFoundError, nullIfNotFound } from '../../core/errors.js';
import { HabitDayState } from '../../habits/habit-enums.js';
import { dueCheck, isQuota } from '../../habits/habit-schedule.js';
import type { Habit } from '../../habits/habit.entity.js';
import { HabitService } from '../../habits/habit.service.js';
import type { KindContext, ReminderKind, ReminderOccurrence, ReminderSpec } from '../reminder-kind.js';
import { clip, localDate, localInstant } from './local-time.js';
import { requireTargetId, targetKey } from './targets.js';

/** Dates looked at for the next due one: a week covers every weekday set; an RRULE looks a year ahead. */
const CANDIDATE_DAYS = 8;
const RULE_DAYS = 366;

/** The states in which a due day needs no reminder. */
const SETTLED = new Set<HabitDayState>([HabitDayState.DONE, HabitDayState.SKIPPED, HabitDayState.REST, HabitDayState.NOT_DUE]);

function findHabit(ctx: KindContext, spec: ReminderSpec): Promise<Habit | null> {
  if (!spec.targetId) return Promise.resolve(null);
  return nullIfNotFound(ctx.service(HabitService).get(spec.userId, spec.targetId));
}

const dateOf = (occurrence: ReminderOccurrence) => occurrence.key.slice(occurrence.key.lastIndexOf('@') + 1);

/**
 * `habit`: at `localTime` (the person's time zone) on each day the habit is due: its dates for daily,
 * weekday and RRULE schedules, every day for a quota (N per week or month) until the period's quota is
 * met. Keyed `<habitId>@<date>`. Not sent when the day is done, skipped, a rest day (a REST mark,
 * minimum mode, a stress week) or its quota is met; none while the habit is archived or once deleted.
 */
export const habitKind: ReminderKind = {
  name: 'habit',
  target: 'habit',
  localTime: 'required',

  async checkTarget(ctx, spec) {
    const id = requireTargetId(spec.targetId, 'habit');
    if (!(await findHabit(ctx, { ...spec, targetId: id }))) throw new NotFoundError('Habit', { field: 'targetId' });
  },

  async nextOccurrence(ctx, spec, after): Promise<ReminderOccurrence | null> {
    if (!spec.localTime) return null;
    const habit = await findHabit(ctx, spec);
    if (!habit || habit.archivedAt) return null;
    // From the day before `after`'s local date (a zone change may still hold a later instant there).
    let from = addDays(localDate(after, ctx.timezone), -1);
    if (from < habit.startDate) from = habit.startDate;
    const span = habit.schedule === 'RRULE' ? RULE_DAYS : CANDIDATE_DAYS;
    const to = addDays(from, span);
    const due = isQuota(habit) ? () => true : dueCheck(habit, from, to);
    for (let date = from; date <= to; date = addDays(date, 1)) {
      if (!due(date)) continue;
      const dueAt = localInstant(date, spec.localTime, ctx.timezone);
      if (dueAt.getTime() > after.getTime()) return { dueAt, key: targetKey(habit.id, date) };
    }
    return null;
  },

  async stillDue(ctx, spec, occurrence) {
    const habit = await findHabit(ctx, spec);
    if (!habit || habit.archivedAt) return false;
    const day = await ctx.service(HabitService).stateOn(spec.userId, habit, dateOf(occurrence));
    return !SETTLED.has(day.state);
  },

  async message(ctx, spec, occurrence) {
    const habit = await findHabit(ctx, spec);
    const name = clip(habit?.name ?? 'A habit', 120);
    if (!habit) return { title: name, body: 'The habit was deleted.' };
    const target = habit.kind === 'CHECK' ? '' : ` (${habit.target}${habit.kind === 'DURATION' ? ' min' : habit.unit ? ` ${habit.unit}` : ''})`;
    return { title: `${habit.icon ? `${habit.icon} ` : ''}${name}`, body: `Time for ${name}${target} today, ${dateOf(occurrence)}.`, url: `/api/v1/habits/${habit.id}` };
  },
};
