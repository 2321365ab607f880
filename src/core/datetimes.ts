import { ValidationError } from './errors.js';

/** A datetime given as a Date or an ISO 8601 string (callers outside GraphQL pass strings). */
export type DateInput = Date | string;

/** The Date of an optional datetime input; null/undefined stay absent. Invalid input is a ValidationError naming `field`. */
export function toDate(value: DateInput | null | undefined, field: string): Date | undefined {
  if (value === undefined || value === null) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) {
    const message = `${field} must be an ISO 8601 datetime`;
    throw new ValidationError(message, [{ path: [field], message }]);
  }
  return date;
}

/** An end before its start is refused, naming the end field. */
export function checkOrder(start: Date | null | undefined, end: Date | null | undefined, startField: string, endField: string): void {
  if (start && end && end.getTime() < start.getTime()) {
    const message = `${endField} must not be before ${startField}`;
    throw new ValidationError(message, [{ path: [endField], message }]);
  }
}
