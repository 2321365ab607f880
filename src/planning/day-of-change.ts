import { ownerRecordIds } from '../core/live/change-collector.js';
import type { LiveChange } from '../core/live/live-change.js';

/**
 * The days a changed record belongs to, before and after the change (`LiveChange.scope.day`): the Day
 * itself, or the `dayId` of a record of a day (checklist items, tasks, sessions, entries…). A task moved
 * from Monday to Tuesday concerns both. Unknown when the record has no day column or its day is not
 * loaded (a removed reference): then the change may concern any day.
 */
export const daysOfChange = ownerRecordIds('Day', 'dayId');

/** The weeks a changed record belongs to (`scope.week`): the Week itself, or the `weekId` of a day, a grocery list… */
export const weeksOfChange = ownerRecordIds('Week', 'weekId');

/** Whether a change can concern the day `dayId`: it names that day, or names none it could be sure of. */
export function mayConcernDay(change: LiveChange, dayId: unknown): boolean {
  const days = change.scope?.day;
  return days === undefined || typeof dayId !== 'string' || days.includes(dayId);
}

/** The ids a week subscription's start date stands for: the week and its seven days. */
export interface WeekRecords {
  weekId: string;
  dayIds: ReadonlySet<string>;
}

/**
 * Whether a change can concern the week `week`: it names the week or one of its days, or names neither
 * (settings, categories: undated). Unknown week (not generated yet): any change.
 */
export function mayConcernWeek(change: LiveChange, week: WeekRecords | null): boolean {
  const weeks = change.scope?.week;
  const days = change.scope?.day;
  if (!week || (weeks === undefined && days === undefined)) return true;
  return weeks?.includes(week.weekId) === true || days?.some((id) => week.dayIds.has(id)) === true;
}
