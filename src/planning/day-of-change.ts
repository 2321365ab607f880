import type { ChangeSet } from '@mikro-orm/core';
import { idOf } from '../core/live/change-collector.js';
import type { LiveChange } from '../core/live/live-change.js';

/**
 * The days a changed record belongs to, before and after the change (`LiveChange.scope`): the Day
 * itself, or the `dayId` of a record of a day (checklist items, tasks, sessions, entries…). A task moved
 * from Monday to Tuesday concerns both. Undefined when the record has no day column or its day is not
 * loaded (a removed reference): then the change may concern any day.
 */
export function daysOfChange(changeSet: ChangeSet<object>): string[] | undefined {
  if (changeSet.meta.className === 'Day') {
    const id = idOf((changeSet.entity as { id?: unknown }).id) ?? changeSet.getSerializedPrimaryKey();
    return id ? [id] : undefined;
  }
  if (!changeSet.meta.properties['dayId' as never]) return undefined;
  const now = (changeSet.entity as { dayId?: unknown }).dayId;
  if (now === undefined) return undefined;
  const days = new Set<string>();
  const add = (value: unknown) => {
    const id = idOf(value);
    if (id) days.add(id);
  };
  add(now);
  if (changeSet.originalEntity) {
    const before = (changeSet.originalEntity as { dayId?: unknown }).dayId;
    if (before === undefined) return undefined;
    add(before);
  }
  return [...days];
}

/** Whether a change can concern the day `dayId`: it names that day, or names none it could be sure of. */
export function mayConcernDay(change: LiveChange, dayId: unknown): boolean {
  return change.scope === undefined || typeof dayId !== 'string' || change.scope.includes(dayId);
}
