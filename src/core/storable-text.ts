import { Matches, type ValidationOptions } from 'class-validator';
import type { FieldError } from './errors.js';

/** A NUL, or a UTF-16 surrogate without its pair (valid in a JS string, refused by jsonb and UTF-8). */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const STORABLE = /^(?:[^\u0000\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

/** Why PostgreSQL cannot store `text`, or null when it can. */
export function unstorableTextReason(text: string): string | null {
  const found = UNSTORABLE.exec(text)?.[0];
  if (found === undefined) return null;
  return found === '\u0000' ? 'the NUL character (U+0000)' : 'an unpaired surrogate (invalid Unicode)';
}

/**
 * Refuses strings PostgreSQL cannot store (a NUL character, a lone surrogate); without this check such
 * input fails in the database as a 500. `each` checks every item of a list.
 */
export function StorableText(field: string, options: Pick<ValidationOptions, 'each'> = {}): PropertyDecorator {
  return Matches(STORABLE, { ...options, message: `${field} must not contain a NUL character or invalid Unicode` });
}

/**
 * One error per string PostgreSQL cannot store anywhere in a JSON body (values and object keys), with
 * its path: for the services that take free-form JSON (Brain databases, records, forms and answers),
 * whose jsonb column would otherwise refuse it as a 500.
 */
export function unstorableTextErrors(value: unknown, path: (string | number)[] = []): FieldError[] {
  if (typeof value === 'string') {
    const reason = unstorableTextReason(value);
    return reason ? [{ path, message: `must not contain ${reason}` }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => unstorableTextErrors(item, [...path, i]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => {
      const reason = unstorableTextReason(key);
      return reason ? [{ path: [...path, key], message: `the key must not contain ${reason}` }] : unstorableTextErrors(item, [...path, key]);
    });
  }
  return [];
}
