import type * as chrono from 'chrono-node';
import { DateTime } from 'luxon';
import { addDays } from '../core/dates.js';
import { overlaps, token, type Token } from './spans.js';

/** The languages dates are read in: English (month/day first), British English (day/month first). */
export const QUICK_ADD_LOCALES = ['en', 'en-GB'] as const;
export type QuickAddLocale = (typeof QUICK_ADD_LOCALES)[number];

/** The person's clock: now, their IANA time zone and the date language. */
export interface Clock {
  now: Date;
  timezone: string;
  locale: QuickAddLocale;
}

/** A date (and maybe a time, or a time range) said in the line, in the person's time zone. */
export interface SaidDate {
  token: Token;
  /** YYYY-MM-DD in the person's time zone. */
  date: string;
  /** HH:MM when a time was said. */
  time: string | null;
  /** HH:MM of a range's end ("3-4pm"). */
  endTime: string | null;
  /** Only a weekday was said ("friday"): it may mean the coming one or the last one. */
  weekdayOnly: boolean;
  /** Whether a day was said at all (a lone "at 3pm" says only a time). */
  daySaid: boolean;
  /** The same words read backwards ("this morning" said in the evening is today, not tomorrow): for logs. */
  pastDate: string;
}

type Parsers = Readonly<Record<QuickAddLocale, chrono.Chrono>>;
/*
 * chrono-node (every locale it ships, ~13 MB of an idle process's memory) loads with the first quick
 * add, not at start: `loadDateReader` before `findDate`.
 */
let parsers: Parsers | undefined;
let loading: Promise<Parsers> | undefined;

/** Loads the date reader once; `findDate` needs it. */
export async function loadDateReader(): Promise<void> {
  loading ??= import('chrono-node').then((c) => (parsers = { en: c.en.casual, 'en-GB': c.en.GB }));
  await loading;
}
/** A bare duration ("20 min", "90m"): chrono reads it as "20 minutes from now"; here it is an amount of time. */
const BARE_DURATION = /^\d+(?:[.,]\d+)?\s*(?:m|mins?|minutes?|h|hrs?|hours?|s|secs?|seconds?|d|days?|w|weeks?)$/i;

const pad = (n: number) => String(n).padStart(2, '0');

/** Today in the person's zone, YYYY-MM-DD. */
export function todayOf(clock: Clock): string {
  return DateTime.fromJSDate(clock.now).setZone(clock.timezone).toISODate()!;
}

/**
 * The person's wall clock as a Date whose local fields are that wall clock: chrono reads relative words
 * ("tomorrow", "friday") from the local fields of its reference, so this makes it count in the person's
 * zone whatever the process's zone is. Answers are read from chrono's components (year, month, day,
 * hour, minute), never from its Date, for the same reason.
 */
function wallClock(clock: Clock): Date {
  const t = DateTime.fromJSDate(clock.now).setZone(clock.timezone);
  return new Date(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
}

/**
 * The first date or time in `text` (its masked form: spans already understood are blanks) that does not
 * overlap `taken`, read with chrono (forward: "friday" is the coming one). Durations are not dates.
 */
export function findDate(text: string, clock: Clock, taken: readonly Pick<Token, 'start' | 'end'>[]): SaidDate | null {
  if (!parsers) throw new Error('findDate before loadDateReader');
  const parser = parsers[clock.locale];
  const reference = wallClock(clock);
  const results = parser.parse(text, reference, { forwardDate: true });
  for (const r of results) {
    // chrono's text may end in the blanks of a part taken out before: the date is its words only.
    const words = r.text.trimEnd();
    const span = { start: r.index, end: r.index + words.length };
    if (taken.some((t) => overlaps(t, span))) continue;
    if (BARE_DURATION.test(words.trim()) || /^\d+$/.test(words.trim())) continue;
    const s = r.start;
    const date = `${s.get('year')}-${pad(s.get('month')!)}-${pad(s.get('day')!)}`;
    // Read backwards only when forwards lands after today (a second chrono pass costs as much as the first).
    const backward = date > todayOf(clock) ? parser.parse(text, reference).find((b) => b.index === r.index)?.start : undefined;
    const pastDate = backward ? `${backward.get('year')}-${pad(backward.get('month')!)}-${pad(backward.get('day')!)}` : date;
    const timeSaid = s.isCertain('hour');
    const time = timeSaid ? `${pad(s.get('hour')!)}:${pad(s.get('minute') ?? 0)}` : null;
    const endTime = r.end?.isCertain('hour') ? `${pad(r.end.get('hour')!)}:${pad(r.end.get('minute') ?? 0)}` : null;
    const weekdayOnly = s.isCertain('weekday') && !s.isCertain('day') && !s.isCertain('month');
    // A lone time ("at 3pm") is today's, whether or not it has passed: chrono's forward reading would
    // move it to tomorrow, which nobody logging "water at 3pm" means.
    const today = todayOf(clock);
    const onlyTime = timeSaid && !s.isCertain('day') && !s.isCertain('weekday') && !/tomorrow|tonight|today|yesterday|morning|evening|afternoon|night|noon/i.test(r.text);
    const value = onlyTime ? today : date;
    const meaning = time ? (endTime ? `date and time ${value} ${time}-${endTime}` : `date and time ${value} ${time}`) : `date ${value}`;
    return {
      token: token(text, span.start, span.end, meaning, 'date', time ? `${value}T${time}` : value),
      date: value,
      time,
      endTime,
      weekdayOnly,
      daySaid: !onlyTime,
      pastDate: onlyTime ? today : pastDate,
    };
  }
  return null;
}

/** The same weekday a week earlier: "friday" said of something past ("had lunch with Anna friday"). */
export function weekEarlier(date: string): string {
  return addDays(date, -7);
}

/** `date` and `time` in the person's zone as an instant (ISO, UTC). */
export function instantOf(date: string, time: string, timezone: string): string {
  return DateTime.fromISO(`${date}T${time}`, { zone: timezone }).toUTC().toISO()!;
}
