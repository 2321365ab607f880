import * as rrulePackage from 'rrule';
import type { RRule as RRuleType } from 'rrule';
import { addDays } from '../dates.js';
import { ValidationError } from '../errors.js';

// rrule ships CommonJS (`main`) and an ES build (`module`): Node loads the first, whose exports are on
// the default import under ESM; Vite (the tests) loads the second, which has named exports only.
const rrule = ((rrulePackage as { default?: unknown }).default ?? rrulePackage) as typeof import('rrule');
const { RRule, rrulestr } = rrule;

/**
 * Recurrence by RFC 5545 rules (the `rrule` library), on dates: a series starts on a date (its DTSTART)
 * and its occurrences are dates, read in no time zone ("floating", as the spec's days are the user's
 * dates). Exceptions (EXDATE) are dates too. Every expansion is bounded: by a date range, a count and a
 * horizon, so no rule a user writes can make a request or a job loop.
 */

/** Longest rule text accepted (a rule is one line of `KEY=VALUE;…`). */
export const RECURRENCE_RULE_MAX = 500;
/** Occurrences one expansion answers at most (a range read, a feed). */
export const OCCURRENCES_MAX = 1000;
/** How far ahead "the next occurrence" is looked for (a rule with nothing in 10 years has none). */
const NEXT_HORIZON_DAYS = 3660;
const SUB_DAILY = new Set([RRule.HOURLY, RRule.MINUTELY, RRule.SECONDLY]);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface Recurrence {
  /** The rule as stored: `FREQ=…;…` (no `RRULE:` prefix, no DTSTART). */
  rule: string;
  /** The series' first date (DTSTART), YYYY-MM-DD. */
  start: string;
  /** Dates left out (EXDATE), YYYY-MM-DD. */
  exceptions?: readonly string[];
}

const utc = (date: string) => new Date(`${date}T00:00:00Z`);
const dateOf = (instant: Date) => instant.toISOString().slice(0, 10);

function fail(field: string, message: string): never {
  throw new ValidationError(`${field} ${message}`, [{ path: [field], message: `${field} ${message}` }]);
}

/**
 * The rule in its stored form, or a VALIDATION_ERROR naming `field`: RFC 5545 syntax, no DTSTART of its
 * own (the series' date is its start), at most RECURRENCE_RULE_MAX characters, and a sub-daily rule
 * (HOURLY, MINUTELY, SECONDLY) must end (COUNT or UNTIL): occurrences are dates, and a never-ending
 * sub-daily rule would only cost work.
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
  if (SUB_DAILY.has(options.freq) && !options.count && !options.until) fail(field, 'at an hourly or finer frequency must end (COUNT or UNTIL)');
  if (options.count !== undefined && options.count !== null && (options.count < 1 || options.count > OCCURRENCES_MAX)) fail(field, `COUNT must be 1 to ${OCCURRENCES_MAX}`);
  if (options.interval !== undefined && (options.interval < 1 || options.interval > 1000)) fail(field, 'INTERVAL must be 1 to 1000');
  return RRule.optionsToString(options).replace(/^RRULE:/, '');
}

function ruleOf(recurrence: Recurrence): RRuleType {
  if (!DATE.test(recurrence.start)) throw new Error(`recurrence start ${recurrence.start} is not a date`);
  return rrulestr(`DTSTART:${recurrence.start.replace(/-/g, '')}T000000Z\nRRULE:${recurrence.rule}`) as RRuleType;
}

const MS_PER_DAY = 86_400_000;
const present = (value: unknown) => value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);

/**
 * The same series with its DTSTART moved forward to the last period boundary on or before `from`, so
 * that reading dates from `from` on does not walk every period since a start years ago (rrule iterates
 * from DTSTART: a daily rule begun ten years back costs ~14 ms for one week; anchored, well under 1 ms).
 * The dates from `from` on are the same: the start moves by whole multiples of the period (INTERVAL
 * days, weeks, months or years), so every period keeps its phase, and the BY-parts rrule would infer
 * from DTSTART (the weekday, the day of the month, the month) are written out first. Left as it is: a
 * COUNT rule (its count runs from the first date), sub-daily frequencies (they must end anyway), and
 * BYEASTER. A start moved to a date that is not an occurrence (the 1st of a month) gives no date of
 * its own: rrule yields only dates the rule matches.
 */
function anchored(recurrence: Recurrence, from: string): Recurrence {
  if (from <= recurrence.start || !DATE.test(recurrence.start)) return recurrence;
  const options = RRule.parseString(recurrence.rule);
  if (present(options.count) || present((options as { byeaster?: unknown }).byeaster)) return recurrence;
  const interval = options.interval ?? 1;
  const start = utc(recurrence.start);
  const target = utc(from);
  const dayParts = [options.byweekno, options.byyearday, options.bymonthday, options.byweekday].some(present);
  let anchor: Date;
  switch (options.freq) {
    case RRule.DAILY:
    case RRule.WEEKLY: {
      const period = options.freq === RRule.DAILY ? interval : 7 * interval;
      const periods = Math.floor((target.getTime() - start.getTime()) / MS_PER_DAY / period);
      if (periods < 1) return recurrence;
      // WEEKLY without BYDAY takes DTSTART's weekday: whole weeks keep it.
      anchor = new Date(start.getTime() + periods * period * MS_PER_DAY);
      break;
    }
    case RRule.MONTHLY: {
      const months = (target.getUTCFullYear() - start.getUTCFullYear()) * 12 + target.getUTCMonth() - start.getUTCMonth();
      const periods = Math.floor(months / interval);
      if (periods < 1) return recurrence;
      if (!dayParts) options.bymonthday = [start.getUTCDate()];
      anchor = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + periods * interval, 1));
      break;
    }
    case RRule.YEARLY: {
      const periods = Math.floor((target.getUTCFullYear() - start.getUTCFullYear()) / interval);
      if (periods < 1) return recurrence;
      if (!dayParts) {
        if (!present(options.bymonth)) options.bymonth = [start.getUTCMonth() + 1];
        options.bymonthday = [start.getUTCDate()];
      }
      anchor = new Date(Date.UTC(start.getUTCFullYear() + periods * interval, 0, 1));
      break;
    }
    default:
      return recurrence;
  }
  return { rule: RRule.optionsToString(options).replace(/^RRULE:/, ''), start: dateOf(anchor), exceptions: recurrence.exceptions };
}

/**
 * The occurrence dates from `from` to `to` (both included), exceptions left out, in order, at most
 * `limit` (OCCURRENCES_MAX by default).
 */
export function occurrencesBetween(recurrence: Recurrence, from: string, to: string, limit = OCCURRENCES_MAX): string[] {
  if (to < from) return [];
  const skip = new Set(recurrence.exceptions ?? []);
  const dates: string[] = [];
  let last = '';
  ruleOf(anchored(recurrence, from)).between(utc(from), new Date(utc(to).getTime() + 86_399_999), true, (instant) => {
    const date = dateOf(instant);
    // A sub-daily rule may land on one date several times: a date occurs once.
    if (date !== last && !skip.has(date)) dates.push(date);
    last = date;
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
    const before = occurrencesBetween({ rule: recurrence.rule, start: recurrence.start }, recurrence.start, addDays(date, -1)).length;
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
 * The last date the series can fall on, for reads that look for the series alive in a range: UNTIL's
 * date, or the date its COUNT-th occurrence falls on (looked for within ten years of the start). Null
 * when it never ends, or when COUNT is not reached within ten years (read as "no known end").
 */
export function lastDate(recurrence: Recurrence): string | null {
  const options = RRule.parseString(recurrence.rule);
  const until = options.until ? dateOf(options.until) : null;
  if (!options.count) return until;
  let last: Date | null = null;
  let seen = 0;
  const count = options.count;
  ruleOf({ rule: recurrence.rule, start: recurrence.start }).between(utc(recurrence.start), utc(addDays(recurrence.start, NEXT_HORIZON_DAYS)), true, (instant) => {
    last = instant;
    seen++;
    return seen < count;
  });
  const counted = seen === count && last ? dateOf(last) : null;
  if (!counted) return until;
  return until && until < counted ? until : counted;
}

/** Whether the series' start is one of its own dates (RFC 5545 leaves a DTSTART out of step with its rule undefined). */
export function startsOnItsRule(recurrence: Recurrence): boolean {
  return occurrencesBetween({ rule: recurrence.rule, start: recurrence.start }, recurrence.start, recurrence.start, 1).length === 1;
}
