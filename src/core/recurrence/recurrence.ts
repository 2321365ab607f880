import * as rrulePackage from 'rrule';
import type { RRule as RRuleType } from 'rrule';
import { addDays } from '../dates.js';
import { ValidationError } from '../errors.js';

// rrule ships CommonJS (`main`) and an ES build (`module`): Node loads the first, whose exports are on
// the default import under ESM; Vite (the tests) loads the second, which has named exports only.
const rrule = ((rrulePackage as { default?: unknown }).default ?? rrulePackage) as typeof import('rrule');
const { RRule } = rrule;

/**
 * Recurrence by RFC 5545 rules (the `rrule` library), on dates: a series starts on a date (its DTSTART)
 * and its occurrences are dates, read in no time zone ("floating", as the spec's days are the user's
 * dates). Exceptions (EXDATE) are dates too. Every expansion is bounded: by a date range, a count and a
 * horizon, so no rule a user writes can make a request or a job loop.
 *
 * The horizon (issue 34): rrule walks every period from DTSTART, so no expansion hands it the series'
 * own start. A rule that never ends is read from a start moved forward to the window (`anchored`); a
 * COUNT rule is read as the same rule ending (UNTIL) on its last date, known (`Recurrence.end`, stored
 * when the rule is written) or found once within COUNT_HORIZON_PERIODS of its start, and then moved
 * forward likewise; a series that ends before the window is not walked at all. A COUNT rule whose
 * COUNT-th date lies beyond that horizon is refused when written (`requireCountWithinHorizon`).
 */

/** Longest rule text accepted (a rule is one line of `KEY=VALUE;…`). */
export const RECURRENCE_RULE_MAX = 500;
/** Occurrences one expansion answers at most (a range read, a feed). */
export const OCCURRENCES_MAX = 1000;
/** How far ahead "the next occurrence" is looked for (a rule with nothing in 10 years has none). */
const NEXT_HORIZON_DAYS = 3660;
/**
 * Periods of its frequency (INTERVAL included) within which a COUNT rule must reach its COUNT-th date:
 * 10 years of a daily rule, 70 of a weekly one, 305 of a monthly one, 3,660 of a yearly one. Finding
 * that date walks at most these periods (well under 50 ms), once, when the rule is written.
 */
export const COUNT_HORIZON_PERIODS = 3660;
/** The last date rrule and the ISO date form here reach. */
const LAST_DATE = '9999-12-31';
const MS_PER_DAY = 86_400_000;
const SUB_DAILY = new Set([RRule.HOURLY, RRule.MINUTELY, RRule.SECONDLY]);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface Recurrence {
  /** The rule as stored: `FREQ=…;…` (no `RRULE:` prefix, no DTSTART). */
  rule: string;
  /** The series' first date (DTSTART), YYYY-MM-DD. */
  start: string;
  /** Dates left out (EXDATE), YYYY-MM-DD. */
  exceptions?: readonly string[];
  /**
   * The series' last date as stored when its rule was written (`lastDate`), if the caller has it: a
   * COUNT rule is then read without walking from its start. Absent or null: found within the horizon.
   */
  end?: string | null;
}

const utc = (date: string) => new Date(`${date}T00:00:00Z`);
const dateOf = (instant: Date) => instant.toISOString().slice(0, 10);

function fail(field: string, message: string): never {
  throw new ValidationError(`${field} ${message}`, [{ path: [field], message: `${field} ${message}` }]);
}

/**
 * The rule in its stored form, or a VALIDATION_ERROR naming `field`: RFC 5545 syntax, no DTSTART of its
 * own (the series' date is its start), at most RECURRENCE_RULE_MAX characters, and daily or less often:
 * every series here (tasks, transactions, birthdays) has dates only, and an HOURLY, MINUTELY or
 * SECONDLY rule only multiplies the work of finding them (issue 34).
 */
export function normalizeRule(text: string, field = 'recurrence'): string {
  const trimmed = text.trim().replace(/^RRULE:/i, '');
  if (!trimmed) fail(field, 'must not be empty');
  if (trimmed.length > RECURRENCE_RULE_MAX) fail(field, `must be at most ${RECURRENCE_RULE_MAX} characters`);
  if (/[\r\n]|DTSTART|EXDATE|RDATE/i.test(trimmed)) fail(field, 'must be one RRULE (FREQ=…;…) without DTSTART, EXDATE or RDATE');
  let options;
  try {
    options = RRule.parseString(trimmed);
  } catch (error) {
    fail(field, `is not a valid RRULE: ${(error as Error).message}`);
  }
  if (options.freq === undefined) fail(field, 'must name FREQ');
  if (SUB_DAILY.has(options.freq)) fail(field, 'must repeat daily or less often (FREQ=DAILY, WEEKLY, MONTHLY or YEARLY): occurrences are dates');
  if (options.count !== undefined && options.count !== null && (options.count < 1 || options.count > OCCURRENCES_MAX)) fail(field, `COUNT must be 1 to ${OCCURRENCES_MAX}`);
  if (options.interval !== undefined && (options.interval < 1 || options.interval > 1000)) fail(field, 'INTERVAL must be 1 to 1000');
  return RRule.optionsToString(options).replace(/^RRULE:/, '');
}

type RuleOptions = ReturnType<typeof RRule.parseString>;

const ruleText = (options: RuleOptions) => RRule.optionsToString(options).replace(/^RRULE:/, '');
const endOfDay = (date: string) => new Date(utc(date).getTime() + 86_399_999);

function ruleFrom(options: RuleOptions, start: string): RRuleType {
  return new RRule({ ...options, dtstart: utc(start) });
}

/**
 * A rule stored before sub-daily frequencies were refused (issue 34), read as what a series here keeps,
 * dates: daily on the same day-level BY-parts (time parts, BYSETPOS and INTERVAL dropped), so it costs
 * what a daily rule costs. Its stored end (where its COUNT ended) still ends it.
 */
function dateRule(options: RuleOptions): RuleOptions {
  if (!SUB_DAILY.has(options.freq!)) return options;
  const { byhour: _h, byminute: _m, bysecond: _s, bysetpos: _p, interval: _i, ...rest } = options;
  return { ...rest, freq: RRule.DAILY };
}

/** The date COUNT_HORIZON_PERIODS periods (INTERVAL included) after `start`, at most 9999-12-31. */
function horizonOf(options: RuleOptions, start: string): string {
  const periods = COUNT_HORIZON_PERIODS * (options.interval ?? 1);
  const s = utc(start);
  const [y, m, d] = [s.getUTCFullYear(), s.getUTCMonth(), s.getUTCDate()];
  const end =
    options.freq === RRule.YEARLY ? new Date(Date.UTC(y + periods, m, d))
    : options.freq === RRule.MONTHLY ? new Date(Date.UTC(y, m + periods, d))
    : new Date(s.getTime() + periods * (options.freq === RRule.WEEKLY ? 7 : 1) * MS_PER_DAY);
  return end.getUTCFullYear() > 9999 ? LAST_DATE : dateOf(end);
}

/**
 * Recent COUNT ends by rule and start: writing one series asks for its end up to three times (the
 * horizon check, the start check, the stored end), and each walk of a worst-case rule costs up to tens
 * of milliseconds. Bounded; the oldest entry leaves first.
 */
const countEnds = new Map<string, string | null>();
const COUNT_ENDS_KEPT = 256;

/** The date of a COUNT rule's COUNT-th occurrence, walking at most to its horizon; null when not reached. */
function countEnd(options: RuleOptions, start: string): string | null {
  const key = `${RRule.optionsToString(options)}|${start}`;
  if (countEnds.has(key)) return countEnds.get(key)!;
  const end = walkToCount(options, start);
  if (countEnds.size >= COUNT_ENDS_KEPT) countEnds.delete(countEnds.keys().next().value!);
  countEnds.set(key, end);
  return end;
}

function walkToCount(options: RuleOptions, start: string): string | null {
  const count = options.count!;
  let last: Date | null = null;
  let seen = 0;
  ruleFrom(options, start).between(utc(start), endOfDay(horizonOf(options, start)), true, (instant) => {
    last = instant;
    seen++;
    return seen < count;
  });
  return seen === count && last ? dateOf(last) : null;
}

/**
 * The series as it is expanded: a COUNT rule becomes the same rule ending (UNTIL) on its last date, the
 * stored one or the one found within the horizon (the horizon itself for a stored rule that never
 * reaches its COUNT there), so nothing needs to walk from the start to count; `last` is the series'
 * last date (null: it never ends).
 */
function bounded(recurrence: Recurrence): { options: RuleOptions; start: string; last: string | null } {
  if (!DATE.test(recurrence.start)) throw new Error(`recurrence start ${recurrence.start} is not a date`);
  const options = dateRule(RRule.parseString(recurrence.rule));
  let last = options.until ? dateOf(options.until) : null;
  if (options.count) {
    const counted = recurrence.end ?? countEnd(options, recurrence.start) ?? horizonOf(options, recurrence.start);
    if (last === null || counted < last) last = counted;
    delete options.count;
    options.until = endOfDay(last);
  }
  return { options, start: recurrence.start, last };
}

const present = (value: unknown) => value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);

/**
 * The same rule with its DTSTART moved forward to the last period boundary on or before `from`, so
 * that reading dates from `from` on does not walk every period since a start years ago (rrule iterates
 * from DTSTART: a daily rule begun ten years back costs ~14 ms for one week; anchored, well under 1 ms).
 * The dates from `from` on are the same: the start moves by whole multiples of the period (INTERVAL
 * days, weeks, months or years), so every period keeps its phase, and the BY-parts rrule would infer
 * from DTSTART (the weekday, the day of the month, the month) are written out first. The rule has no
 * COUNT here (`bounded` made it UNTIL). A start moved to a date that is not an occurrence (the 1st of
 * a month) gives no date of its own: rrule yields only dates the rule matches.
 */
function anchored(options: RuleOptions, startDate: string, from: string): { options: RuleOptions; start: string } {
  const unchanged = { options, start: startDate };
  if (from <= startDate || present(options.count)) return unchanged;
  const interval = options.interval ?? 1;
  const start = utc(startDate);
  const target = utc(from);
  // rrule infers no day from DTSTART when BYEASTER is given either.
  const dayParts = [options.byweekno, options.byyearday, options.bymonthday, options.byweekday, (options as { byeaster?: unknown }).byeaster].some(present);
  let anchor: Date;
  switch (options.freq) {
    case RRule.DAILY:
    case RRule.WEEKLY: {
      const period = options.freq === RRule.DAILY ? interval : 7 * interval;
      const periods = Math.floor((target.getTime() - start.getTime()) / MS_PER_DAY / period);
      if (periods < 1) return unchanged;
      // WEEKLY without BYDAY takes DTSTART's weekday: whole weeks keep it.
      anchor = new Date(start.getTime() + periods * period * MS_PER_DAY);
      break;
    }
    case RRule.MONTHLY: {
      const months = (target.getUTCFullYear() - start.getUTCFullYear()) * 12 + target.getUTCMonth() - start.getUTCMonth();
      const periods = Math.floor(months / interval);
      if (periods < 1) return unchanged;
      if (!dayParts) options.bymonthday = [start.getUTCDate()];
      anchor = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + periods * interval, 1));
      break;
    }
    case RRule.YEARLY: {
      const periods = Math.floor((target.getUTCFullYear() - start.getUTCFullYear()) / interval);
      if (periods < 1) return unchanged;
      if (!dayParts) {
        if (!present(options.bymonth)) options.bymonth = [start.getUTCMonth() + 1];
        options.bymonthday = [start.getUTCDate()];
      }
      anchor = new Date(Date.UTC(start.getUTCFullYear() + periods * interval, 0, 1));
      break;
    }
    default:
      return unchanged;
  }
  return { options, start: dateOf(anchor) };
}

/**
 * The occurrence dates from `from` to `to` (both included), exceptions left out, in order, at most
 * `limit` (OCCURRENCES_MAX by default). A series that ends before `from` is not walked at all; any
 * other walks from a start near `from` (see `bounded` and `anchored`).
 */
export function occurrencesBetween(recurrence: Recurrence, from: string, to: string, limit = OCCURRENCES_MAX): string[] {
  if (to < from) return [];
  const { options, start, last } = bounded(recurrence);
  const until = last !== null && last < to ? last : to;
  if (until < from) return [];
  const skip = new Set(recurrence.exceptions ?? []);
  const dates: string[] = [];
  const moved = anchored(options, start, from);
  ruleFrom(moved.options, moved.start).between(utc(from), endOfDay(until), true, (instant) => {
    const date = dateOf(instant);
    if (!skip.has(date)) dates.push(date);
    return dates.length < Math.min(limit, OCCURRENCES_MAX);
  });
  return dates;
}

/** The first occurrence after `after` (excluded) within ten years, or null (the series has ended). */
export function nextOccurrence(recurrence: Recurrence, after: string): string | null {
  return occurrencesBetween(recurrence, addDays(after, 1), addDays(after, NEXT_HORIZON_DAYS), 1)[0] ?? null;
}

/** Whether `date` is an occurrence of the series (not an exception). */
export function occursOn(recurrence: Recurrence, date: string): boolean {
  return occurrencesBetween(recurrence, date, date, 1).length === 1;
}

/**
 * The series ended the day before `date` (for "this and following" edits): the same rule with UNTIL
 * set, COUNT dropped. Null when nothing of the series is left before `date`.
 */
export function endBefore(recurrence: Recurrence, date: string): string | null {
  if (date <= recurrence.start) return null;
  const options = RRule.parseString(recurrence.rule);
  delete options.count;
  options.until = new Date(utc(addDays(date, -1)).getTime() + 86_399_999);
  return RRule.optionsToString(options).replace(/^RRULE:/, '');
}

/** The RRULE property line for an iCalendar writer: `FREQ=…` with DTSTART given separately. */
export function iCalRule(recurrence: Recurrence): string {
  return `RRULE:${recurrence.rule}`;
}

/** Whether the rule repeats more often than daily (HOURLY, MINUTELY, SECONDLY): its dates repeat within a day. */
export function isSubDaily(rule: string): boolean {
  return SUB_DAILY.has(RRule.parseString(rule).freq!);
}

/**
 * The same series from `date` on, where `date` is one of its occurrences (exceptions aside): DTSTART
 * moved there and COUNT lowered by the occurrences before it, so the rule gives exactly the dates it
 * gave from `date` on (an occurrence keeps every period and BY-part in phase). A calendar feed writes a
 * series this way from the first date it shows, instead of listing every date before as an EXDATE.
 */
export function restartAt(recurrence: Recurrence, date: string): Recurrence {
  const exceptions = (recurrence.exceptions ?? []).filter((d) => d >= date);
  if (date <= recurrence.start) return { ...recurrence, exceptions };
  const options = RRule.parseString(recurrence.rule);
  if (options.count) {
    const before = occurrencesBetween({ rule: recurrence.rule, start: recurrence.start, end: recurrence.end }, recurrence.start, addDays(date, -1)).length;
    options.count = Math.max(1, options.count - before);
  }
  return { rule: RRule.optionsToString(options).replace(/^RRULE:/, ''), start: date, exceptions };
}

/**
 * The rule as an all-day iCalendar event writes it: UNTIL as a DATE, because RFC 5545 §3.3.10 gives UNTIL
 * the value type of DTSTART (a DATE here). Occurrences are UTC midnights, so UNTIL's UTC date keeps them.
 */
export function iCalDateRule(rule: string): string {
  return rule.replace(/UNTIL=(\d{8})T\d{6}Z?/, 'UNTIL=$1');
}

/**
 * A yearly date (a birthday) as a rule from that date: every year on its month and day; a 29 February
 * falls on the last day of February (the 28th in common years) rather than only in leap years.
 */
export function yearlyRule(date: string): string {
  return date.slice(5) === '02-29' ? 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1' : 'FREQ=YEARLY';
}

/**
 * The last date the series can fall on, stored with the rule when it is written so that reads skip
 * series that ended before their range and never count a COUNT rule from its start: UNTIL's date, or
 * the date its COUNT-th occurrence falls on (the horizon's date for a rule stored before the horizon
 * that does not reach its COUNT within it: reads end it there). Null when it never ends.
 */
export function lastDate(recurrence: Recurrence): string | null {
  return bounded({ rule: recurrence.rule, start: recurrence.start }).last;
}

/**
 * Refuses (VALIDATION_ERROR naming `field`) a COUNT rule whose COUNT-th date lies beyond
 * COUNT_HORIZON_PERIODS periods of its start (`FREQ=DAILY;COUNT=1000;BYMONTH=2;BYMONTHDAY=29`: 4,000
 * years of days): its end could only be found by walking them. UNTIL says the same without a count.
 */
export function requireCountWithinHorizon(recurrence: Recurrence, field = 'recurrence'): void {
  const options = dateRule(RRule.parseString(recurrence.rule));
  if (!options.count || countEnd(options, recurrence.start) !== null) return;
  if (options.until && dateOf(options.until) <= horizonOf(options, recurrence.start)) return;
  fail(field, `COUNT=${options.count} is not reached within ${COUNT_HORIZON_PERIODS} periods of the rule (FREQ, INTERVAL) from its start: give UNTIL instead`);
}

/**
 * The series from `date` (one of its dates) on, as a calendar feed writes it without counting what came
 * before: DTSTART `date`, a COUNT rule written as the same rule ending (UNTIL) on its last date (the
 * same dates), the exceptions from then on. A date before the start leaves the start as it is.
 */
export function seriesFrom(recurrence: Recurrence, date: string): Recurrence {
  const { options, start, last } = bounded(recurrence);
  const from = date > start ? date : start;
  return { rule: ruleText(options), start: from, exceptions: (recurrence.exceptions ?? []).filter((d) => d >= from), end: last };
}

/** Whether the series' start is one of its own dates (RFC 5545 leaves a DTSTART out of step with its rule undefined). */
export function startsOnItsRule(recurrence: Recurrence): boolean {
  return occurrencesBetween({ rule: recurrence.rule, start: recurrence.start }, recurrence.start, recurrence.start, 1).length === 1;
}
