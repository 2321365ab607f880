import { addDays } from '../core/dates.js';
import { ValidationError } from '../core/errors.js';
import { normalizeRule, occurrencesBetween, requireCountWithinHorizon } from '../core/recurrence/recurrence.js';
import { HabitKind, HabitSchedule } from './habit-enums.js';
import { HABIT_MINUTES_MAX } from './habit-limits.js';

/** What a habit holds after its fields are read together (create, or a change on top of the stored habit). */
export interface HabitShape {
  kind: HabitKind;
  unit: string | null;
  target: number;
  schedule: HabitSchedule;
  weekdays: number[];
  timesPerPeriod: number | null;
  recurrence: string | null;
  startDate: string;
}

function refuse(field: string, message: string): never {
  throw new ValidationError(message, [{ path: [field], message }]);
}

const isWhole = (n: number) => Number.isInteger(n);

/** Checks a value (a target or an entry) against the habit's kind; `field` names it in a refusal. */
export function checkValue(kind: HabitKind, value: number, field: 'target' | 'value'): void {
  if (kind === HabitKind.CHECK && value !== 1) refuse(field, `${field} must be 1 for a CHECK habit`);
  if (kind === HabitKind.COUNT && !isWhole(value)) refuse(field, `${field} must be a whole number for a COUNT habit`);
  if (kind === HabitKind.DURATION && (!isWhole(value) || value > HABIT_MINUTES_MAX)) refuse(field, `${field} must be whole minutes, 1-${HABIT_MINUTES_MAX}, for a DURATION habit`);
}

/**
 * The habit's fields as they fit together, or a 400 naming the field that does not: CHECK has target
 * 1 and no unit, AMOUNT needs a unit and a target, DURATION a target in minutes; each schedule takes
 * its own field (weekdays, timesPerPeriod, recurrence) and refuses the others'. An RRULE is normalised
 * by the recurrence core, and a start that is not one of its dates moves to its first date from there.
 */
export function shapeHabit(shape: HabitShape, given: { target: boolean; unit: boolean }): HabitShape {
  const out = { ...shape, weekdays: [...shape.weekdays].sort((a, b) => a - b) };
  if (out.kind === HabitKind.CHECK) {
    if (given.unit && out.unit) refuse('unit', 'unit is for AMOUNT and COUNT habits');
    out.unit = null;
  }
  if (out.kind === HabitKind.DURATION && given.unit && out.unit) refuse('unit', 'a DURATION habit counts minutes: unit is for AMOUNT and COUNT habits');
  if (out.kind === HabitKind.DURATION) out.unit = null;
  if (out.kind === HabitKind.AMOUNT && !out.unit) refuse('unit', 'unit is required for an AMOUNT habit');
  if ((out.kind === HabitKind.DURATION || out.kind === HabitKind.AMOUNT) && !given.target && !shape.target) refuse('target', `target is required for a ${out.kind} habit`);
  checkValue(out.kind, out.target, 'target');

  if (out.schedule === HabitSchedule.WEEKDAYS) {
    if (!out.weekdays.length) refuse('weekdays', 'weekdays must name at least one day for a WEEKDAYS habit');
    if (out.weekdays.some((d) => !isWhole(d) || d < 1 || d > 7)) refuse('weekdays', 'weekdays must be 1 (Monday) to 7 (Sunday)');
  } else if (out.weekdays.length) refuse('weekdays', 'weekdays is for a WEEKDAYS habit');

  const quotaMax = out.schedule === HabitSchedule.TIMES_PER_WEEK ? 7 : out.schedule === HabitSchedule.TIMES_PER_MONTH ? 28 : 0;
  if (quotaMax) {
    if (out.timesPerPeriod === null) refuse('timesPerPeriod', `timesPerPeriod is required for a ${out.schedule} habit`);
    if (out.timesPerPeriod > quotaMax) refuse('timesPerPeriod', `timesPerPeriod must be at most ${quotaMax} for a ${out.schedule} habit`);
  } else if (out.timesPerPeriod !== null) refuse('timesPerPeriod', 'timesPerPeriod is for TIMES_PER_WEEK and TIMES_PER_MONTH habits');

  if (out.schedule === HabitSchedule.RRULE) {
    if (!out.recurrence) refuse('recurrence', 'recurrence is required for an RRULE habit');
    out.recurrence = normalizeRule(out.recurrence);
    requireCountWithinHorizon({ rule: out.recurrence, start: out.startDate });
    const first = occurrencesBetween({ rule: out.recurrence, start: out.startDate }, out.startDate, addDays(out.startDate, 400), 1)[0];
    if (!first) refuse('recurrence', 'recurrence has no date within 400 days of startDate');
    out.startDate = first;
  } else if (out.recurrence) refuse('recurrence', 'recurrence is for an RRULE habit');
  return out;
}
