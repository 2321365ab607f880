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
