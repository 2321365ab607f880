import { requireVersion } from '../core/database/expected-version.js';
import { LockMode } from '@mikro-orm/core';
import { isUuid } from '../core/scalars.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError } from '../core/errors.js';
import { recordEvent } from '../core/events/record-event.js';
import { recordFact } from '../core/events/fact-dispatcher.js';
import { ChecklistItem } from './checklist-item.entity.js';
import { CHECKLIST_ORDER, ChecklistKey } from './checklist-key.js';
import { refreshDayCompletion, refreshDaysCompletion } from './day-completion.js';
import { Day } from './day.entity.js';


type ValueRule = { accepts(value: unknown): boolean; message: string };

const isNumberIn = (min: number, max: number) => (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v > min && v <= max;

/** Spec: an item can carry a value (water amount, book id, meditation duration); others carry none. */
const VALUE_RULES: Partial<Record<ChecklistKey, ValueRule>> = {
  [ChecklistKey.WATER]: { accepts: isNumberIn(0, 20_000), message: 'WATER value must be millilitres, a number above 0 and at most 20000' },
  [ChecklistKey.MEDITATION]: {
    accepts: (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 1440,
    message: 'MEDITATION value must be whole minutes from 1 to 1440',
  },
  [ChecklistKey.READING]: { accepts: (v) => isUuid(v), message: 'READING value must be a book id (UUID)' },
  [ChecklistKey.WEIGHT_LOG]: { accepts: isNumberIn(0, 1000), message: 'WEIGHT_LOG value must be kilograms, above 0 and at most 1000' },
};

function checkValue(key: ChecklistKey, value: unknown): void {
  if (value === undefined || value === null) return;
  const rule = VALUE_RULES[key];
  const message = rule ? rule.message : `${key} carries no value`;
  if (!rule || !rule.accepts(value)) throw new ValidationError(message, [{ path: ['value'], message }]);
}

export function sortChecklist(items: ChecklistItem[]): ChecklistItem[] {
  return [...items].sort((a, b) => CHECKLIST_ORDER.indexOf(a.key) - CHECKLIST_ORDER.indexOf(b.key));
}

/** A toggle's options: the version the caller last read, and the locked day row for a caller's loader. */
export interface ToggleOptions {
  expectedVersion?: number | null;
  onDay?: (day: Day) => void;
}

export class ChecklistService {
  constructor(private readonly em: EntityManager) {}

  async list(userId: string, dayId: string): Promise<ChecklistItem[]> {
    const day = await this.em.findOne(Day, { id: dayId, userId });
    if (!day) throw new NotFoundError('Day');
    return sortChecklist(await this.em.find(ChecklistItem, { dayId }));
  }

  /**
   * Flips an item; becoming done stores the value and records checklist_completed. `expectedVersion`: the
   * item's version the caller last read (a stale one is refused). `onDay`: the day row the toggle locked (a
   * caller answering fields of the day primes its loader with it, not reading it again).
   */
  async toggle(userId: string, dayId: string, key: ChecklistKey, value: unknown, options: ToggleOptions = {}): Promise<ChecklistItem> {
    checkValue(key, value);
    return this.setState(userId, dayId, key, (item) => !item.completed, value, options);
  }

  /**
   * Sets an item done or not done (nothing changes when it already is) for other domains' rules (e.g.
   * cooking a dinner completes COOK): the same event and day completion as a toggle.
   */
  async setCompleted(userId: string, dayId: string, key: ChecklistKey, completed: boolean): Promise<ChecklistItem> {
    return this.setState(userId, dayId, key, () => completed, null);
  }

  private async setState(userId: string, dayId: string, key: ChecklistKey, next: (item: ChecklistItem) => boolean, value: unknown, options: ToggleOptions = {}): Promise<ChecklistItem> {
    return this.em.transactional(async (em) => {
      // The day row lock serialises toggles of one day, so completion is judged on a stable checklist.
      const day = await em.findOne(Day, { id: dayId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!day) throw new NotFoundError('Day');
      options.onDay?.(day);
      const item = (await em.findOne(ChecklistItem, { dayId, key })) ?? em.create(ChecklistItem, { userId, dayId, key });
      // Under the day's lock no other toggle of the item can come between the comparison and the write.
      requireVersion(item, options.expectedVersion, 'Checklist item');
      const completed = next(item);
      if (completed === item.completed) return item;
      const now = new Date();
      if (item.completed) {
        item.completed = false;
        item.completedAt = null;
        item.value = null;
        recordFact(em, userId, 'checklist_item_unticked', { dayId, itemKey: key }, now);
      } else {
        markCompleted(em, item, value, now);
      }
      await em.flush();
      await refreshDayCompletion(em, day, now);
      return item;
    });
  }
}

/** Ticks an item: stores the value and records checklist_completed (a toggle and every automatic tick). */
function markCompleted(em: EntityManager, item: ChecklistItem, value: unknown, now: Date): void {
  item.completed = true;
  item.completedAt = now;
  item.value = value ?? null;
  recordEvent(em, item.userId, 'checklist_completed', { dayId: item.dayId, itemKey: item.key, completedAt: now.toISOString() });
}

/**
 * Completes `key` on a day as a toggle would (value, checklist_completed, day completion), when it is
 * not completed yet; a completed item is left as it is. For writes that tick an item by themselves (a
 * journal entry, a reading session, a meditation). `day` must be the caller's, locked in `em`'s
 * transaction (lockDay), which serialises this with toggles of the same day. Returns whether it ticked.
 */
export async function completeChecklistItem(em: EntityManager, day: Day, key: ChecklistKey, value?: unknown, now = new Date()): Promise<boolean> {
  checkValue(key, value);
  const item = (await em.findOne(ChecklistItem, { dayId: day.id, key })) ?? em.create(ChecklistItem, { userId: day.userId, dayId: day.id, key });
  if (item.completed) return false;
  markCompleted(em, item, value, now);
  await em.flush();
  await refreshDayCompletion(em, day, now);
  return true;
}

/**
 * `completeChecklistItem` on many days at once (an import's batch): their items read in one statement
 * and written in one flush, then their completion judged together. `days` must be the caller's, locked
 * in `em`'s transaction; `valueOf` gives each day's value.
 */
export async function completeChecklistItems(em: EntityManager, days: readonly Day[], key: ChecklistKey, valueOf: (day: Day) => unknown, now = new Date()): Promise<void> {
  if (!days.length) return;
  for (const day of days) checkValue(key, valueOf(day));
  const items = new Map((await em.find(ChecklistItem, { dayId: { $in: days.map((d) => d.id) }, key })).map((item) => [item.dayId, item]));
  const ticked: Day[] = [];
  for (const day of days) {
    const item = items.get(day.id) ?? em.create(ChecklistItem, { userId: day.userId, dayId: day.id, key });
    if (item.completed) continue;
    markCompleted(em, item, valueOf(day), now);
    ticked.push(day);
  }
  if (!ticked.length) return;
  await em.flush();
  await refreshDaysCompletion(em, ticked, now);
}
