import rrulePackage from 'rrule';
import type { RRule as RRuleType } from 'rrule';
import { addDays } from '../dates.js';
import { ValidationError } from '../errors.js';

// rrule ships CommonJS; its named exports are on the default import under ESM.
const { RRule, rrulestr } = rrulePackage as unknown as typeof import('rrule');

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

/**
 * The occurrence dates from `from` to `to` (both included), exceptions left out, in order, at most
 * `limit` (OCCURRENCES_MAX by default).
 */
export function occurrencesBetween(recurrence: Recurrence, from: string, to: string, limit = OCCURRENCES_MAX): string[] {
  if (to < from) return [];
  const skip = new Set(recurrence.exceptions ?? []);
  const dates: string[] = [];
  let last = '';
  ruleOf(recurrence).between(utc(from), new Date(utc(to).getTime() + 86_399_999), true, (instant) => {
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
