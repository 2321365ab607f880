import { DateTime } from 'luxon';
import { addDays } from '../../core/dates.js';
import type { ReminderOccurrence } from '../reminder-kind.js';

/**
 * Local wall-clock time for the reminder kinds, in the user's IANA time zone (luxon), so 07:00 stays
 * 07:00 across daylight-saving changes.
 *
 * - A local time that does not exist on a DST day (02:30 in the spring gap) moves forward by the gap,
 *   as luxon does: 02:30 on 2026-03-29 in Europe/Berlin is 03:30 CEST.
 * - A local time that happens twice (the autumn fall-back hour) is its first occurrence, the one still in
 *   summer time: 02:30 on 2026-10-25 in Europe/Berlin is 02:30 CEST (00:30 UTC), not the second one.
 */

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Whether `time` is HH:MM (00:00-23:59). */
export function isClockTime(time: string | null | undefined): time is string {
  return !!time && HH_MM.test(time);
}

/** The instant of `time` (HH:MM) on `date` (YYYY-MM-DD) in `zone`, by the rules above. */
export function localInstant(date: string, time: string, zone: string): Date {
  const match = HH_MM.exec(time);
  if (!match) throw new Error(`not a HH:MM time: ${time}`);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const dt = DateTime.fromObject({ year, month, day, hour: Number(match[1]), minute: Number(match[2]) }, { zone });
  if (!dt.isValid) throw new Error(`invalid local time ${date} ${time} in ${zone}: ${dt.invalidExplanation}`);
  // Ambiguous (autumn): luxon answers the later offset; the first occurrence is the earliest instant.
  const earliest = dt.getPossibleOffsets().reduce((min, candidate) => (candidate.toMillis() < min.toMillis() ? candidate : min), dt);
  return earliest.toJSDate();
}

/** The calendar date (YYYY-MM-DD) of an instant in `zone`. */
export function localDate(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toISODate()!;
}

/** The wall-clock time (HH:MM) of an instant in `zone`. */
export function localClock(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toFormat('HH:mm');
}

/** "Fri 27 Nov" (English, for messages). */
export function shortDate(date: string): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).setLocale('en-GB').toFormat('ccc d LLL');
}

/** "Fri 27 Nov, 17:00" of an instant in `zone`. */
export function shortDateTime(instant: Date, zone: string): string {
  const dt = DateTime.fromJSDate(instant, { zone }).setLocale('en-GB');
  return dt.toFormat('ccc d LLL, HH:mm');
}

/** "in 10 minutes", "in 2 hours", "in 1 day 3 hours" for an offset, or "now" for none. */
export function inHowLong(offsetMinutes: number): string {
  if (offsetMinutes <= 0) return 'now';
  const days = Math.floor(offsetMinutes / 1440);
  const hours = Math.floor((offsetMinutes % 1440) / 60);
  const minutes = offsetMinutes % 60;
  const parts: string[] = [];
  if (days) parts.push(`${days} day${days === 1 ? '' : 's'}`);
  if (hours) parts.push(`${hours} hour${hours === 1 ? '' : 's'}`);
  if (minutes) parts.push(`${minutes} minute${minutes === 1 ? '' : 's'}`);
  return `in ${parts.join(' ')}`;
}

/** At most `max` characters (an ellipsis ends a cut text), for titles and lines of a notification. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** "A, B, C (+2 more)": the first `shown` of a list. */
export function listed(items: readonly string[], shown: number, separator = ', '): string {
  const head = items.slice(0, shown).join(separator);
  return items.length > shown ? `${head} (+${items.length - shown} more)` : head;
}

/** How many days a daily kind looks at from the first candidate (enough for any offset the engine allows). */
const DAILY_CANDIDATES = 4;

/**
 * The next occurrence of a reminder due once a day: the first of a few candidate dates whose moment
 * (`momentOf(date)`, null when that date has none) minus `offsetMinutes` is strictly after `after`. The
 * key is the date (the user's calendar day the occurrence belongs to). The first candidate is the day
 * before the local date of `after + offset`, so any offset works and the work is a few dates at most.
 */
export async function nextDaily(
  after: Date,
  offsetMinutes: number,
  zone: string,
  momentOf: (date: string) => Promise<Date | null>,
): Promise<ReminderOccurrence | null> {
  const offsetMs = offsetMinutes * 60_000;
  const first = addDays(localDate(new Date(after.getTime() + offsetMs), zone), -1);
  for (let i = 0; i < DAILY_CANDIDATES; i++) {
    const date = addDays(first, i);
    const moment = await momentOf(date);
    if (!moment) continue;
    const dueAt = new Date(moment.getTime() - offsetMs);
    if (dueAt.getTime() > after.getTime()) return { dueAt, key: date };
  }
  return null;
}
