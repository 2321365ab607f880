import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { StorableText } from '../storable-text.js';

/** Text with at least one non-space character (the OpenAPI documents show it as `pattern: \S`). */
export const NOT_BLANK = /\S/;

/** A colour as `#RRGGBB`. */
export const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

/** A required text: a string, not empty, not blank, at most `max` characters, storable (no NUL, no lone surrogate). */
export function RequiredText(field: string, max: number): PropertyDecorator {
  const rules = [
    IsString({ message: `${field} must be a string` }),
    MinLength(1, { message: `${field} must not be empty` }),
    MaxLength(max, { message: `${field} must be at most ${max} characters` }),
    Matches(NOT_BLANK, { message: `${field} must not be blank` }),
    StorableText(field),
  ];
  return (target, key) => rules.forEach((rule) => rule(target, key));
}
