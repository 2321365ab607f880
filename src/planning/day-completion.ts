import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../core/events/record-event.js';
import { recordFact } from '../core/events/fact-dispatcher.js';
import { ChecklistItem } from './checklist-item.entity.js';
import { requiredChecklist } from './checklist-key.js';
import type { Day } from './day.entity.js';

/**
 * A day is completed when every checklist item its mode requires is done. Called after any change
 * that can move that (a toggle, a mode switch); records day_completed when the day becomes complete.
 */
export async function refreshDayCompletion(em: EntityManager, day: Day, now = new Date()): Promise<void> {
  await refreshDaysCompletion(em, [day], now);
}

/** `refreshDayCompletion` for many days: their completed items read in one statement. */
export async function refreshDaysCompletion(em: EntityManager, days: readonly Day[], now = new Date()): Promise<void> {
  if (!days.length) return;
  const items = await em.find(ChecklistItem, { dayId: { $in: days.map((d) => d.id) }, completed: true }, { fields: ['dayId', 'key'] });
  const done = new Map<string, Set<string>>();
  for (const item of items) (done.get(item.dayId) ?? done.set(item.dayId, new Set()).get(item.dayId)!).add(item.key);
  for (const day of days) {
    const complete = requiredChecklist(day.minimumMode).every((key) => done.get(day.id)?.has(key));
    if (complete && !day.completedAt) {
      day.completedAt = now;
      recordEvent(em, day.userId, 'day_completed', { dayId: day.id, completedAt: now.toISOString() });
    } else if (!complete && day.completedAt) {
      day.completedAt = null;
      recordFact(em, day.userId, 'day_reopened', { dayId: day.id }, now);
    }
  }
}
