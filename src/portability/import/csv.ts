import { parse } from 'csv-parse/sync';
import { ValidationError } from '../../core/errors.js';
import type { RefusedRow } from './import-run.entity.js';

/** A data row of a CSV file: its line number (the header is line 1) and its cells by column name. */
export interface CsvRow {
  row: number;
  cells: Record<string, string>;
}

export interface CsvTable {
  header: string[];
  rows: CsvRow[];
}

/** At most this many data rows per import (a bound on one transaction's size). */
export const MAX_IMPORT_ROWS = 50_000;

/** Comma, semicolon (many European banks) or tab: whichever the header line holds most of. */
export function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/));
  const count = (d: string) => header.split(d).length - 1;
  return [',', ';', '\t'].reduce((best, d) => (count(d) > count(best) ? d : best), ',');
}

/**
 * Reads a CSV file with csv-parse (RFC 4180 quoting, a UTF-8 BOM dropped, cells trimmed). A file that is
 * not CSV, has no header or too many rows is a validation error naming `file` (answered 400 at upload).
 */
export function readCsv(text: string): CsvTable {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, delimiter: delimiterOf(text), trim: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as typeof records;
  } catch (error) {
    throw fileError(`The file is not readable CSV: ${(error as Error).message}`);
  }
  const [first, ...data] = records;
  const header = first?.record;
  if (!header || !header.some((h) => h)) throw fileError('The file has no header row');
  if (data.length > MAX_IMPORT_ROWS) throw fileError(`The file has more than ${MAX_IMPORT_ROWS} rows`);
  return {
    header,
    // `row` is the file's line (where a record with line breaks in a quoted cell ends).
    rows: data.map(({ record, info }) => ({ row: info.lines, cells: Object.fromEntries(header.map((name, i) => [name, record[i] ?? ''])) })),
  };
}

export function fileError(message: string): ValidationError {
  return new ValidationError(message, [{ path: ['file'], message }]);
}

/** The file must have these columns (exact names, as the app writes them); else 400 naming `file`. */
export function requireColumns(table: CsvTable, columns: readonly string[], what: string): void {
  const missing = columns.filter((c) => !table.header.includes(c));
  if (missing.length) throw fileError(`Not a ${what} CSV: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
}

/** A row refused while parsing: the reason travels to the import's `refused` list. */
export class RowRefusal extends Error {}

export function refuse(reason: string): never {
  throw new RowRefusal(reason);
}

/** Collects refused rows in file order. */
export class Refusals {
  readonly rows: RefusedRow[] = [];

  add(row: number, reason: string): void {
    this.rows.push({ row, reason });
  }

  sorted(): RefusedRow[] {
    return [...this.rows].sort((a, b) => a.row - b.row);
  }
}

/** An optional decimal (`.` as decimal point), or undefined when empty; refuses anything else. */
export function optionalNumber(value: string, column: string, min: number, max: number): number | undefined {
  if (value === '') return undefined;
  const n = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < min || n > max) refuse(`${column} must be a number from ${min} to ${max} (got ${JSON.stringify(value.slice(0, 20))})`);
  return n;
}

export function optionalInteger(value: string, column: string, min: number, max: number): number | undefined {
  const n = optionalNumber(value, column, min, max);
  if (n !== undefined && !Number.isInteger(n)) refuse(`${column} must be a whole number (got ${JSON.stringify(value.slice(0, 20))})`);
  return n;
}

export function requireText(value: string, column: string, maxLength: number): string {
  if (!value) refuse(`${column} is empty`);
  if (value.length > maxLength) refuse(`${column} is longer than ${maxLength} characters`);
  return value;
}

export function optionalText(value: string, column: string, maxLength: number): string | null {
  if (!value) return null;
  if (value.length > maxLength) refuse(`${column} is longer than ${maxLength} characters`);
  return value;
}

/** A real calendar date as YYYY-MM-DD, or null. */
export function calendarDate(year: number, month: number, day: number): string | null {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || year > 2200 || d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A local wall-clock time (no zone) of a date. */
export interface LocalDateTime {
  date: string;
  hour: number;
  minute: number;
  second: number;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `instant`, in milliseconds. */
function zoneOffset(timeZone: string, instant: number): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    offsetFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant of a wall-clock time in the user's time zone (the apps export local times without a
 * zone). Two passes settle the offset around daylight-saving changes.
 */
export function zonedInstant(local: LocalDateTime, timeZone: string): Date {
  const [y, m, d] = local.date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, local.hour, local.minute, local.second);
  let instant = wall - zoneOffset(timeZone, wall);
  instant = wall - zoneOffset(timeZone, instant);
  return new Date(instant);
}
