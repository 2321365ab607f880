import { addDays } from '../core/dates.js';
import { localClock, localDate, localInstant } from './kinds/local-time.js';

/**
 * Quiet hours: [start, end) in the user's local time, across midnight when start is after end (22:00 to
 * 07:00). An occurrence falling in them is held until they end: answers that end (the first local `end`
 * after `instant`, DST-correct), or null when the instant is outside them (or quiet hours are off).
 */
export function quietHoursEnd(instant: Date, zone: string, start: string | null, end: string | null): Date | null {
  if (!start || !end || start === end) return null;
  const clock = localClock(instant, zone);
  const overnight = start > end;
  const quiet = overnight ? clock >= start || clock < end : clock >= start && clock < end;
  if (!quiet) return null;
  const today = localDate(instant, zone);
  const endDate = overnight && clock >= start ? addDays(today, 1) : today;
  const until = localInstant(endDate, end, zone);
  // A DST gap can put the local end before the instant (never in practice for whole quiet hours); never hold backwards.
  return until.getTime() > instant.getTime() ? until : null;
}
