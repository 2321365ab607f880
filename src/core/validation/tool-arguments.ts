import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../pagination.js';
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

/**
 * A whole number in min..max with the domain's own words for each rule (the ones its @IsInt/@Min/@Max
 * use). `max` undefined: no upper bound, as in GraphQL (zod's JSON schema would otherwise show the
 * safe-integer limit as `maximum`).
 */
export function wholeNumber(field: string, min: number, max: number | undefined, words: { int: string; min: string; max?: string }) {
  const schema = z.number({ error: `${field} must be a number` }).int(words.int).min(min, words.min);
  return max === undefined ? schema.meta({ maximum: undefined }) : schema.max(max, words.max);
}

/** `page` and `limit` as PageArgs has them (class-validator's default words). */
export const pageArgs = {
  page: wholeNumber('page', 1, undefined, { int: 'page must be an integer number', min: 'page must not be less than 1' }).optional().describe('Page number, from 1 (default 1).'),
  limit: wholeNumber('limit', 1, undefined, { int: 'limit must be an integer number', min: 'limit must not be less than 1' })
    .optional()
    .describe(`Items per page (default 50; more than ${MAX_PAGE_SIZE} counts as ${MAX_PAGE_SIZE}).`),
};

/**
 * A number argument with the GraphQL argument's bounds and words: `int` is its whole-number message
 * (absent: any number), and a bound without a message of its own gets class-validator's default wording.
 */
export function boundedNumber(field: string, rule: { int?: string; min: number; minMessage?: string; max: number; maxMessage?: string }) {
  const base = z.number({ error: `${field} must be a number` });
  return (rule.int ? base.int(rule.int) : base)
    .min(rule.min, rule.minMessage ?? `${field} must not be less than ${rule.min}`)
    .max(rule.max, rule.maxMessage ?? `${field} must not be greater than ${rule.max}`);
}
