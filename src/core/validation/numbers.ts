import { IsInt, IsNumber, Max, Min, type ValidationOptions } from 'class-validator';
import { composed } from './compose.js';

/** A rule's own words, or class-validator's default ones when absent. */
type Words = { int?: string; number?: string; min?: string; max?: string };

const said = (message: string | undefined): ValidationOptions => (message === undefined ? {} : { message });

/**
 * A whole number from `min` to `max` (no upper bound when `max` is undefined), each rule in the
 * domain's words where it has them. The rules apply in the order the hand-written `@IsInt @Min @Max`
 * stack had (bottom first), so a value breaking two of them lists the same errors in the same order.
 */
export function WholeNumber(min: number, max: number | undefined, words: Omit<Words, 'number'> = {}): PropertyDecorator {
  const bounds = max === undefined ? [Min(min, said(words.min))] : [Max(max, said(words.max)), Min(min, said(words.min))];
  return composed(...bounds, IsInt(said(words.int)));
}

/** A finite number (no NaN, no Infinity) from `min` to `max`, in the same order as WholeNumber. */
export function BoundedNumber(min: number, max: number, words: Omit<Words, 'int'> = {}): PropertyDecorator {
  return composed(Max(max, said(words.max)), Min(min, said(words.min)), IsNumber({ allowNaN: false, allowInfinity: false }, said(words.number)));
}
