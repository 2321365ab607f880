import type { EntityManager } from '@mikro-orm/postgresql';
import { DateTime } from 'luxon';
import { ValidationError } from '../core/errors.js';
import { DEFAULT_TIMEZONE } from '../settings/user-settings.entity.js';
import { agendaSettingsRow, AGENDA_SOURCES, sourceRows, type AgendaSource } from './agenda.queries.js';
import { AgendaEntryType, type AgendaEntry } from './agenda.types.js';

/** operations.md "Agenda": start and end at most this many days apart. */
export const MAX_RANGE_DAYS = 366;

/**
 * Entries one agenda answer holds at most (issue 23: every list is bounded). A range holding more is a
 * 400 asking for a shorter one; the calendar feed keeps the earliest this many of its window.
 */
export const MAX_AGENDA_ENTRIES = 5000;

const DEFAULT_LARGE_EXPENSE_THRESHOLD = '100';

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
 * deadlines, project task due dates, transactions, reading and meditation of one user, merged into one
 * list sorted by start. Each source is one statement for the whole range (agenda.queries.ts), so a read
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
   * all-day entries as dates there); `complete` is false when the range holds more.
   */
  static async read(em: EntityManager, userId: string, input: AgendaRangeInput): Promise<{ entries: AgendaEntry[]; timezone: string; complete: boolean }> {
    const settings = await agendaSettingsRow(em, userId);
    const timezone = typeof settings?.timezone === 'string' ? settings.timezone : DEFAULT_TIMEZONE;
    const threshold = settings?.large_expense_threshold !== undefined && settings.large_expense_threshold !== null ? String(settings.large_expense_threshold) : DEFAULT_LARGE_EXPENSE_THRESHOLD;
    const { start, end } = AgendaService.parseRange(input, timezone);
    const params = [userId, start.toISOString(), end.toISOString(), timezone, input.showAllTransactions === true, threshold];
    // Started in the same turn: they share one round trip outside a transaction.
    const lists = await Promise.all(SOURCES.map(async (source) => AgendaService.entries(em, source, await sourceRows(em, source.sql, params.slice(0, source.parameters)))));
    const entries = lists.flat().sort(compareEntries);
    return { entries: entries.slice(0, MAX_AGENDA_ENTRIES), timezone, complete: entries.length <= MAX_AGENDA_ENTRIES };
  }

  private static entries(em: EntityManager, source: AgendaSource, rows: Record<string, unknown>[]): AgendaEntry[] {
    return rows.map((row) => {
      const sourceId = String(row.id);
      return {
        type: source.type,
        id: `${source.type}:${sourceId}`,
        title: source.title(row),
        start: toDate(em, row.start),
        end: row.end === null || row.end === undefined ? null : toDate(em, row.end),
        allDay: row.day === true || row.day === 't',
        sourceId,
      };
    });
  }
}

function compareEntries(a: AgendaEntry, b: AgendaEntry): number {
  return (
    a.start.getTime() - b.start.getTime() ||
    Number(b.allDay) - Number(a.allDay) ||
    TYPE_ORDER.get(a.type)! - TYPE_ORDER.get(b.type)! ||
    (a.title < b.title ? -1 : a.title > b.title ? 1 : 0) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
