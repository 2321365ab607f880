/** Calendar arithmetic on `YYYY-MM-DD` strings, done in UTC so no local time zone can shift a day. */

export function parseDate(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

export function formatDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  const d = parseDate(date);
  d.setUTCDate(d.getUTCDate() + days);
  return formatDate(d);
}

/** ISO weekday: Monday 1 … Sunday 7. */
export function isoWeekday(date: string): number {
  return parseDate(date).getUTCDay() || 7;
}

export function isMonday(date: string): boolean {
  return isoWeekday(date) === 1;
}

export function mondayOf(date: string): string {
  return addDays(date, 1 - isoWeekday(date));
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's date in an IANA time zone (formatters are made once per zone: making one is costly). */
export function todayIn(timeZone: string, now = new Date()): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    if (dateFormats.size < 1000) dateFormats.set(timeZone, format);
  }
  return format.format(now);
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
