import { z } from 'zod';
import { HEX_COLOR, NOT_BLANK, TEXT_MESSAGES } from './text.js';

/**
 * The validation vocabulary as zod schemas for the connector's tool arguments: the same bounds (passed
 * from the domain's `*.types.ts` constants) and the same messages as the GraphQL and REST arguments.
 * Storability (NUL, lone surrogates) is checked for every tool call at once, as for every request.
 */

/** Text with a non-space character, 1..max characters (RequiredText). */
export function requiredText(field: string, max: number) {
  return z
    .string({ error: TEXT_MESSAGES.string(field) })
    .min(1, TEXT_MESSAGES.empty(field))
    .max(max, TEXT_MESSAGES.tooLong(field, max))
    .regex(NOT_BLANK, TEXT_MESSAGES.blank(field));
}

/** Optional text up to `max` characters (an optional @MaxLength field). */
export function optionalText(field: string, max: number) {
  return z.string({ error: TEXT_MESSAGES.string(field) }).max(max, TEXT_MESSAGES.tooLong(field, max)).optional();
}

/** A colour as `#RRGGBB`. */
export function hexColor(field: string) {
  return z.string({ error: TEXT_MESSAGES.string(field) }).regex(HEX_COLOR, TEXT_MESSAGES.hexColor(field));
}

/**
 * A whole number in min..max. `message` is the domain's wording for both bounds (the one its @Min/@Max
 * use); without it, class-validator's default wording.
 */
export function boundedInt(field: string, min: number, max: number, message?: string) {
  return z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be an integer number`)
    .min(min, message ?? `${field} must not be less than ${min}`)
    .max(max, message ?? `${field} must not be greater than ${max}`);
}
