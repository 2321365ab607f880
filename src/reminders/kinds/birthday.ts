import { NotFoundError } from '../../core/errors.js';
import type { KindContext, ReminderKind, ReminderOccurrence, ReminderSpec } from '../reminder-kind.js';
import { personOf } from './kinds.queries.js';
import { clip, inHowLong, isClockTime, localDate, localInstant, shortDate } from './local-time.js';
import { requireTargetId, targetKey, unscheduled } from './targets.js';

/** When a birthday reminder rings without a `localTime`. */
export const DEFAULT_BIRTHDAY_TIME = '09:00';

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/**
 * The date a birthday (YYYY-MM-DD, any year) falls on in `year`: the same month and day, except that
 * 29 February is kept on 28 February in years without it.
 */
export function birthdayIn(birthday: string, year: number): string {
  const monthDay = birthday.slice(5);
  const yyyy = String(year).padStart(4, '0');
  return monthDay === '02-29' && !isLeapYear(year) ? `${yyyy}-02-28` : `${yyyy}-${monthDay}`;
}

const timeOf = (spec: ReminderSpec) => (isClockTime(spec.localTime) ? spec.localTime : DEFAULT_BIRTHDAY_TIME);

async function birthdayOf(ctx: KindContext, spec: ReminderSpec) {
  if (!spec.targetId) return null;
  const person = await personOf(ctx.em, spec.userId, spec.targetId);
  return person?.birthday ? { person, birthday: person.birthday } : null;
}

/**
 * `birthday`: every year at `localTime` (default 09:00, the user's time zone) on a person's birthday,
 * minus `offsetMinutes` (1440 = the day before). A birthday on 29 February rings on 28 February in
 * years without one. Keyed `<personId>@<that year's date>`; a changed birthday makes new occurrences
 * and the old one is no longer due. A person without a birthday cannot be given one (refused at once);
 * none once the person is deleted or their birthday cleared.
 */
export const birthdayKind: ReminderKind = {
  name: 'birthday',
  target: 'person',
  localTime: 'optional',

  async checkTarget(ctx, spec) {
    const id = requireTargetId(spec.targetId, 'person');
    const person = await personOf(ctx.em, spec.userId, id);
    if (!person) throw new NotFoundError('Person', { field: 'targetId' });
    if (!person.birthday) throw unscheduled(`${clip(person.name, 60)} has no birthday: set it on the person first`);
  },

  async nextOccurrence(ctx, spec, after): Promise<ReminderOccurrence | null> {
    const found = await birthdayOf(ctx, spec);
    if (!found) return null;
    const offsetMs = spec.offsetMinutes * 60_000;
    // The year whose birthday is due next starts at most one year back from `after + offset`: four years bound the look.
    const year = Number(localDate(new Date(after.getTime() + offsetMs), ctx.timezone).slice(0, 4));
    for (let y = year - 1; y <= year + 2; y++) {
      const date = birthdayIn(found.birthday, y);
      const dueAt = new Date(localInstant(date, timeOf(spec), ctx.timezone).getTime() - offsetMs);
      if (dueAt.getTime() > after.getTime()) return { dueAt, key: targetKey(found.person.id, date) };
    }
    return null;
  },

  async stillDue(ctx, spec, occurrence) {
    const found = await birthdayOf(ctx, spec);
    if (!found) return false;
    const date = occurrence.key.slice(occurrence.key.lastIndexOf('@') + 1);
    return birthdayIn(found.birthday, Number(date.slice(0, 4))) === date;
  },

  async message(ctx, spec, occurrence) {
    const found = await birthdayOf(ctx, spec);
    if (!found) return { title: 'A birthday', body: 'The birthday was changed or removed.' };
    const date = occurrence.key.slice(occurrence.key.lastIndexOf('@') + 1);
    const sameDay = localDate(occurrence.dueAt, ctx.timezone) === date;
    const lines = [sameDay ? `Today, ${shortDate(date)}.` : `On ${shortDate(date)} (${inHowLong(spec.offsetMinutes)}).`];
    if (found.birthday.slice(5) === '02-29' && !date.endsWith('02-29')) lines.push('Born on 29 February: kept on the 28th this year.');
    return { title: `${clip(found.person.name, 60)}'s birthday`, body: lines.join('\n'), url: `/api/v1/people/${found.person.id}` };
  },
};
