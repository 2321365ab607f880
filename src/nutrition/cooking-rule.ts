import { isoWeekday } from '../core/dates.js';

/**
 * Spec rule 5 as operations.md fixes it: 3 cooks a week cover 6 dinners. Monday, Wednesday and Friday
 * are cook days; each cook also feeds the next day (Tuesday, Thursday, Saturday); Sunday is free.
 */
export function isCookDay(date: string): boolean {
  const weekday = isoWeekday(date);
  return weekday === 1 || weekday === 3 || weekday === 5;
}

/** Tuesday, Thursday and Saturday eat the previous day's cook. */
export function isCoveredDay(date: string): boolean {
  const weekday = isoWeekday(date);
  return weekday === 2 || weekday === 4 || weekday === 6;
}

export const COOKING_RULE = 'cooking_rule';
