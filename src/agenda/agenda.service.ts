import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DateTime } from 'luxon';
import { addDays } from '../core/dates.js';
import { ValidationError } from '../core/errors.js';
import { isSubDaily, nextOccurrence, occurrencesBetween, seriesFrom, yearlyRule, type Recurrence } from '../core/recurrence/recurrence.js';
import { DEFAULT_TIMEZONE } from '../settings/user-settings.entity.js';
import {
  agendaSettingsRow,
  AGENDA_SOURCES,
  birthdaySeriesSql,
  birthdayTitle,
  sourceRows,
  taskSeriesSql,
  transactionSeriesSql,
  transactionTitle,
  type AgendaSource,
} from './agenda.queries.js';
import { AgendaEntryType, type AgendaEntry } from './agenda.types.js';

/** operations.md "Agenda": start and end at most this many days apart. */
export const MAX_RANGE_DAYS = 366;

/**
 * Entries one agenda answer holds at most (issue 23: every list is bounded). A range holding more is a
 * 400 asking for a shorter one; the calendar feed keeps the earliest this many of its window.
 */
export const MAX_AGENDA_ENTRIES = 5000;

const DEFAULT_LARGE_EXPENSE_THRESHOLD = '100';

/** Expansion of series runs at most this long before it lets the event loop turn (many series, long ranges). */
const EXPANSION_SLICE_MS = 10;

/**
 * A series of the agenda as a calendar writes it once with its rule (the feed): every entry of the read
 * whose `series` is its `key` is one of its dates. `recurrence` starts (DTSTART) on its first date in the
 * range or before, always a date of the rule, and leaves out (EXDATE) the dates the range shows
 * otherwise (a task made for that date, an exception); birthdays start on the birth date.
 */
export interface AgendaSeries {
  key: string;
  type: AgendaEntryType;
  sourceId: string;
  title: string;
  recurrence: Recurrence;
}

export interface AgendaRead {
  entries: AgendaEntry[];
  /**
   * With `everySeries` (the feed): every series of the user not ended before the range, whatever its
   * next date (issue 34: a yearly one months away belongs in a subscribed calendar too); else none.
   */
  series: AgendaSeries[];
  timezone: string;
  complete: boolean;
}

export interface AgendaRangeInput {
  /** ISO 8601 (a Date, a datetime, or a date; a date or a datetime without offset is read in the user's time zone). */
  start: Date | string | null | undefined;
  end: Date | string | null | undefined;
  /** Default false: only recurring transactions and large expenses. */
  showAllTransactions?: boolean | null;
}

/** Order of types for entries starting at the same instant (then title, then id): a stable answer. */
const TYPE_ORDER = new Map(Object.values(AgendaEntryType).map((type, i) => [type, i]));

/** How many of $1…$6 a statement uses (each source binds only those: a prepared statement refuses extra values). */
function parameterCount(sql: string): number {
  const used = new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  const count = Math.max(0, ...used);
  for (let n = 1; n <= count; n++) if (!used.has(n)) throw new Error(`agenda source statement skips $${n}`);
  return count;
}

// Each source reads at most one entry past the cap, earliest first: enough to know the range holds more.
const SOURCES = AGENDA_SOURCES.map((source) => ({
  ...source,
  sql: `${source.sql}\n  order by "start", id limit ${MAX_AGENDA_ENTRIES + 1}`,
  parameters: parameterCount(source.sql),
}));

function invalid(field: string, message: string): ValidationError {
  return new ValidationError(message, [{ path: [field], message }]);
}

function parseInstant(value: Date | string | null | undefined, field: string, zone: string): DateTime {
  if (value === undefined || value === null || value === '') throw invalid(field, `${field} is required (ISO 8601)`);
  const parsed =
    value instanceof Date ? DateTime.fromJSDate(value, { zone }) : typeof value === 'string' ? DateTime.fromISO(value.trim(), { zone }) : DateTime.invalid('not text');
  if (!parsed.isValid) throw invalid(field, `${field} must be an ISO 8601 date or datetime`);
  return parsed;
}

/** A timestamptz as the ORM's connection returns it (text) or as pg does (Date). */
function toDate(em: EntityManager, value: unknown): Date {
  if (value instanceof Date) return value;
  return em.getPlatform().parseDate(String(value)) as Date;
}

/**
 * The unified agenda: tasks on their day, training, mobility and cardio sessions, social happenings,
 * deadlines, project task due dates, transactions, reading, meditation and birthdays of one user, and
 * the dates of recurring tasks and transactions not made or booked yet, merged into one list sorted by
 * start. Each source is one statement for the whole range (agenda.queries.ts), so a read
 * costs the same number of statements however many entries it holds. Callers: GraphQL/REST
 * (agenda.resolver.ts), the calendar feed, and any other edge (MCP, benchmarks) with an entity manager.
 */
export class AgendaService {
  /** The range's rules (operations.md): ISO 8601, start before end, at most 366 days apart; else ValidationError (400). */
  static parseRange(input: AgendaRangeInput, timezone: string): { start: Date; end: Date } {
    const start = parseInstant(input.start, 'start', timezone);
    const end = parseInstant(input.end, 'end', timezone);
    if (end.toMillis() <= start.toMillis()) throw invalid('end', 'end must be after start');
    // Calendar days in the user's zone, so a range over a DST change is still 366 days.
    if (end.diff(start.setZone(timezone), 'days').days > MAX_RANGE_DAYS) throw invalid('end', `end must be at most ${MAX_RANGE_DAYS} days after start`);
    return { start: start.toJSDate(), end: end.toJSDate() };
  }

  static async range(em: EntityManager, userId: string, input: AgendaRangeInput): Promise<AgendaEntry[]> {
    const { entries, complete } = await AgendaService.read(em, userId, input);
    if (!complete) throw invalid('end', `The range holds more than ${MAX_AGENDA_ENTRIES} entries; ask for a shorter one`);
    return entries;
  }

  /**
   * The earliest MAX_AGENDA_ENTRIES entries with the time zone they were placed in (the feed writes
   * all-day entries as dates there) and the series they hold dates of; `complete` is false when the
   * range holds more.
   *
   * Besides the sources' rows, the dates of series in the range: recurring tasks on the dates of their
   * rule that have no task made for them (and are no exception), the dates to come of recurring
   * transactions, birthdays (made in SQL, a source like the others). Each kind of series is one statement,
   * started with the sources, so a read costs the same statements whatever it holds.
   */
  static async read(em: EntityManager, userId: string, input: AgendaRangeInput, options: { everySeries?: boolean } = {}): Promise<AgendaRead> {
    const every = options.everySeries === true;
    const settings = await agendaSettingsRow(em, userId);
    const timezone = typeof settings?.timezone === 'string' ? settings.timezone : DEFAULT_TIMEZONE;
    const threshold = settings?.large_expense_threshold !== undefined && settings.large_expense_threshold !== null ? String(settings.large_expense_threshold) : DEFAULT_LARGE_EXPENSE_THRESHOLD;
    const { start, end } = AgendaService.parseRange(input, timezone);
    const params = [userId, start.toISOString(), end.toISOString(), timezone, input.showAllTransactions === true, threshold];
    // The local dates the range touches: its start's, through the one holding its last instant.
    const from = DateTime.fromJSDate(start, { zone: timezone }).toISODate()!;
    const to = DateTime.fromJSDate(new Date(end.getTime() - 1), { zone: timezone }).toISODate()!;
    const seriesParams = [userId, from, to];
    // Started in the same turn: they share one round trip outside a transaction.
    const [rowsBySource, taskSeries, transactionSeries, birthdays] = await Promise.all([
      Promise.all(SOURCES.map((source) => sourceRows(em, source.sql, params.slice(0, source.parameters)))),
      sourceRows(em, every ? EVERY_TASK_SERIES_SQL : TASK_SERIES_SQL, seriesParams),
      sourceRows(em, every ? EVERY_TRANSACTION_SERIES_SQL : TRANSACTION_SERIES_SQL, seriesParams),
      every ? sourceRows(em, BIRTHDAY_SERIES_SQL, [userId]) : Promise.resolve([]),
    ]);
    const lists = SOURCES.map((source, i) => AgendaService.entries(em, source, rowsBySource[i]!));
    const expansion = new Expansion(timezone, from, to, every);
    await expansion.tasks(taskSeries);
    await expansion.transactions(transactionSeries);
    expansion.birthdaySeries(birthdays);
    const entries = [...lists.flat(), ...expansion.entries].sort(compareEntries);
    const kept = entries.slice(0, MAX_AGENDA_ENTRIES);
    const complete = entries.length <= MAX_AGENDA_ENTRIES && taskSeries.length < SERIES_LIMIT && transactionSeries.length < SERIES_LIMIT;
    return { entries: kept, series: expansion.series, timezone, complete };
  }

  private static entries(em: EntityManager, source: AgendaSource, rows: Record<string, unknown>[]): AgendaEntry[] {
    return rows.map((row) => {
      const sourceId = String(row.id);
      const entry: AgendaEntry = {
        type: source.type,
        id: row.occurrence ? `${source.type}:${sourceId}:${String(row.occurrence)}` : `${source.type}:${sourceId}`,
        title: source.title(row),
        start: toDate(em, row.start),
        end: row.end === null || row.end === undefined ? null : toDate(em, row.end),
        allDay: row.day === true || row.day === 't',
        sourceId,
      };
      if (source.type === AgendaEntryType.birthday) entry.series = seriesKey(source.type, sourceId);
      return entry;
    });
  }
}

/** Series rows one statement reads at most (a range with more answers incomplete). */
const SERIES_LIMIT = MAX_AGENDA_ENTRIES + 1;
const TASK_SERIES_SQL = taskSeriesSql(SERIES_LIMIT);
const TRANSACTION_SERIES_SQL = transactionSeriesSql(SERIES_LIMIT);
const EVERY_TASK_SERIES_SQL = taskSeriesSql(SERIES_LIMIT, true);
const EVERY_TRANSACTION_SERIES_SQL = transactionSeriesSql(SERIES_LIMIT, true);
const BIRTHDAY_SERIES_SQL = birthdaySeriesSql(MAX_AGENDA_ENTRIES);

/** The key of a series (and its feed UID before `@`): distinct from every entry id. */
export function seriesKey(type: AgendaEntryType, sourceId: string): string {
  return `${type}-series:${sourceId}`;
}

const textArray = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value.length > 2 ? value.slice(1, -1).split(',') : []);

/**
 * The dates of series in one read's range as entries, kept bounded: at most MAX_AGENDA_ENTRIES + 1
 * dates of all series together (only the earliest can be answered; one more tells the range holds more),
 * each series' expansion bounded the same way and by the recurrence core's horizon (it never walks a
 * rule from its start), and the event loop let go every EXPANSION_SLICE_MS. With `every` (the feed),
 * each series as a calendar writes it, dates in the range or not.
 */
class Expansion {
  readonly entries: AgendaEntry[] = [];
  readonly series: AgendaSeries[] = [];
  /** Midnights of the dates met (at most the range's 367), each computed once. */
  private readonly midnights = new Map<string, Date>();
  /** Dates after this one cannot be among the earliest entries any more. */
  private last: string;
  private sliceStart = performance.now();

  constructor(
    private readonly timezone: string,
    private readonly from: string,
    to: string,
    private readonly every: boolean,
  ) {
    this.last = to;
  }

  async tasks(rows: Record<string, unknown>[]): Promise<void> {
    for (const row of rows) {
      const sourceId = String(row.id);
      const start = String(row.series_start);
      const rule = String(row.rule);
      // The dates shown otherwise: exceptions (EXDATE) and the dates a task was made for.
      const exceptions = [...textArray(row.exceptions), ...textArray(row.materialized)].sort();
      const recurrence: Recurrence = { rule, start, exceptions, end: optionalText(row.series_end) };
      const from = start > this.from ? start : this.from;
      const dates = await this.dates(recurrence, from);
      const key = seriesKey(AgendaEntryType.task, sourceId);
      const title = String(row.title);
      // A sub-daily rule stored before they were refused is no series a calendar is given.
      const series = isSubDaily(rule) ? null : key;
      this.add(AgendaEntryType.task, sourceId, title, dates, true, series);
      if (series) this.remember(key, AgendaEntryType.task, sourceId, title, recurrence, from);
    }
  }

  async transactions(rows: Record<string, unknown>[]): Promise<void> {
    for (const row of rows) {
      const sourceId = String(row.id);
      const next = String(row.next_date);
      const recurrence: Recurrence = { rule: String(row.rule), start: String(row.series_start), end: optionalText(row.series_end) };
      const first = next > this.from ? next : this.from;
      const dates = await this.dates(recurrence, first);
      const key = seriesKey(AgendaEntryType.transaction, sourceId);
      const title = transactionTitle(row);
      this.add(AgendaEntryType.transaction, sourceId, title, dates, false, key);
      this.remember(key, AgendaEntryType.transaction, sourceId, title, recurrence, first);
    }
  }

  /** Every birthday as its yearly series from the birth date (the feed); the range's dates come from the birthday source. */
  birthdaySeries(rows: Record<string, unknown>[]): void {
    for (const row of rows) {
      const sourceId = String(row.id);
      const birthday = String(row.birthday);
      const key = seriesKey(AgendaEntryType.birthday, sourceId);
      this.series.push({ key, type: AgendaEntryType.birthday, sourceId, title: birthdayTitle(row), recurrence: { rule: yearlyRule(birthday), start: birthday } });
    }
  }

  private async dates(recurrence: Recurrence, from: string): Promise<string[]> {
    if (performance.now() - this.sliceStart > EXPANSION_SLICE_MS) {
      await nextTurn();
      this.sliceStart = performance.now();
    }
    if (from > this.last) return [];
    return occurrencesBetween(recurrence, from, this.last, MAX_AGENDA_ENTRIES + 1);
  }

  private add(type: AgendaEntryType, sourceId: string, title: string, dates: string[], lasts: boolean, series: string | null): void {
    for (const date of dates) {
      const start = this.midnight(date);
      this.entries.push({ type, id: `${type}:${sourceId}:${date}`, title, start, end: lasts ? this.midnight(addDays(date, 1)) : null, allDay: true, sourceId, ...(series ? { series } : {}) });
    }
    if (this.entries.length > 2 * (MAX_AGENDA_ENTRIES + 1)) {
      // Only the earliest can be answered: keep those (and one more) and stop looking past them.
      this.entries.sort(compareEntries).splice(MAX_AGENDA_ENTRIES + 1);
      this.last = DateTime.fromJSDate(this.entries[this.entries.length - 1]!.start, { zone: this.timezone }).toISODate()!;
    }
  }

  /**
   * The series as the feed writes it (only with `every`): from its first date of the rule on or after
   * `from` (DTSTART must be a date of the rule: RFC 5545 counts DTSTART as the first instance whatever
   * the rule says, rrule does not), a COUNT rule as UNTIL its last date (core seriesFrom: nothing counted
   * from the start), the exceptions from then on. A series with no date left (ended) is not written.
   */
  private remember(key: string, type: AgendaEntryType, sourceId: string, title: string, recurrence: Recurrence, from: string): void {
    if (!this.every) return;
    const plain: Recurrence = { rule: recurrence.rule, start: recurrence.start, end: recurrence.end };
    const first = occursOnOrAfter(plain, from);
    if (first) this.series.push({ key, type, sourceId, title, recurrence: seriesFrom(recurrence, first) });
  }

  private midnight(date: string): Date {
    let instant = this.midnights.get(date);
    if (!instant) {
      instant = DateTime.fromISO(date, { zone: this.timezone }).toJSDate();
      this.midnights.set(date, instant);
    }
    return instant;
  }
}

/** The series' first date on or after `date` (within the core's ten-year look ahead), or null. */
function occursOnOrAfter(recurrence: Recurrence, date: string): string | null {
  return nextOccurrence(recurrence, addDays(date, -1));
}

const optionalText = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function compareEntries(a: AgendaEntry, b: AgendaEntry): number {
  return (
    a.start.getTime() - b.start.getTime() ||
    Number(b.allDay) - Number(a.allDay) ||
    TYPE_ORDER.get(a.type)! - TYPE_ORDER.get(b.type)! ||
    (a.title < b.title ? -1 : a.title > b.title ? 1 : 0) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
