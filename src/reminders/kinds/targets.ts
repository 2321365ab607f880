import { RuleViolationError } from '../../core/errors.js';
import type { ReminderOccurrence } from '../reminder-kind.js';

/**
 * Pieces the target kinds share: a target that is gone reads as "no occurrence", and an occurrence is
 * named `<targetId>@<when>` so that moving the target (another day, time or due date) makes a new one.
 */


/** `<targetId>@<when>`: stable for one scheduled moment of one target. */
export function targetKey(targetId: string, when: string): string {
  return `${targetId}@${when}`;
}

/** The occurrence `offsetMinutes` before `moment`, when that is strictly after `after`. */
export function beforeMoment(moment: Date, offsetMinutes: number, after: Date, key: string): ReminderOccurrence | null {
  const dueAt = new Date(moment.getTime() - offsetMinutes * 60_000);
  return dueAt.getTime() > after.getTime() ? { dueAt, key } : null;
}

/** The id a target kind needs: a reminder of it without one is refused, naming `targetId`. */
export function requireTargetId(targetId: string | null, what: string): string {
  if (!targetId) throw new RuleViolationError('reminder_target', `A ${what} reminder needs the ${what}'s id as targetId`, ['targetId']);
  return targetId;
}

/** A target that exists but has nothing to remind of (no start time, no birthday) is refused at once. */
export function unscheduled(message: string): RuleViolationError {
  return new RuleViolationError('reminder_target_unscheduled', message, ['targetId']);
}
