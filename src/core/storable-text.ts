import { Matches, type ValidationOptions } from 'class-validator';

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
