import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { StorableText } from '../storable-text.js';
import { composed } from './compose.js';

/** Text with at least one non-space character (the OpenAPI documents show it as `pattern: \S`). */
export const NOT_BLANK = /\S/;

/** A colour as `#RRGGBB`. */
export const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

/**
 * The messages of the text rules, one wording for every surface: GraphQL and REST (class-validator,
 * below) and the connector's tool arguments (zod, tool-arguments.ts).
 */
export const TEXT_MESSAGES = {
  string: (field: string) => `${field} must be a string`,
  empty: (field: string) => `${field} must not be empty`,
  tooLong: (field: string, max: number) => `${field} must be at most ${max} characters`,
  blank: (field: string) => `${field} must not be blank`,
  hexColor: (field: string) => `${field} must be a hex colour #RRGGBB`,
};

/**
 * A required text: a string, not empty, not blank, at most `max` characters, storable (no NUL, no lone
 * surrogate). Checked, and its errors listed, in that order: the order the connector's zod schema
 * (tool-arguments.ts requiredText) lists them, so "" answers "must not be empty" first everywhere.
 */
export function RequiredText(field: string, max: number): PropertyDecorator {
  return composed(
    IsString({ message: TEXT_MESSAGES.string(field) }),
    MinLength(1, { message: TEXT_MESSAGES.empty(field) }),
    MaxLength(max, { message: TEXT_MESSAGES.tooLong(field, max) }),
    Matches(NOT_BLANK, { message: TEXT_MESSAGES.blank(field) }),
    StorableText(field),
  );
}

/**
 * A string of at most `max` characters, storable; it may be empty or blank. With `field`, the length
 * error is in our words (TEXT_MESSAGES.tooLong); without it, in class-validator's own
 * ("… must be shorter than or equal to N characters"), as the fields that never had ours keep them.
 */
export function Text(max: number, field?: string): PropertyDecorator {
  return composed(
    StorableText(field ?? '$property'),
    MaxLength(max, field === undefined ? {} : { message: TEXT_MESSAGES.tooLong(field, max) }),
    IsString(),
  );
}

/** An optional Text: absent or null skips it (a nullable column: null clears it). */
export function OptionalText(max: number, field?: string): PropertyDecorator {
  return composed(Text(max, field), IsOptional());
}

/** A colour as `#RRGGBB` (HEX_COLOR). */
export function HexColour(field: string): PropertyDecorator {
  return Matches(HEX_COLOR, { message: TEXT_MESSAGES.hexColor(field) });
}
