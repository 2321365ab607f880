import { Matches, type ValidationOptions } from 'class-validator';

/** PostgreSQL text cannot hold U+0000; without this check such input fails in the database as a 500. */
const NO_NUL = /^[^\u0000]*$/;

/** Refuses strings PostgreSQL cannot store (a NUL character). `each` checks every item of a list. */
export function StorableText(field: string, options: Pick<ValidationOptions, 'each'> = {}): PropertyDecorator {
  return Matches(NO_NUL, { ...options, message: `${field} must not contain a NUL character` });
}
