import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { StorableText } from '../storable-text.js';

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

/** A required text: a string, not empty, not blank, at most `max` characters, storable (no NUL, no lone surrogate). */
export function RequiredText(field: string, max: number): PropertyDecorator {
  const rules = [
    IsString({ message: TEXT_MESSAGES.string(field) }),
    MinLength(1, { message: TEXT_MESSAGES.empty(field) }),
    MaxLength(max, { message: TEXT_MESSAGES.tooLong(field, max) }),
    Matches(NOT_BLANK, { message: TEXT_MESSAGES.blank(field) }),
    StorableText(field),
  ];
  return (target, key) => rules.forEach((rule) => rule(target, key));
}
