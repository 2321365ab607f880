import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../../core/errors.js';
import { Habit } from '../../habits/habit.entity.js';
import { HabitEntry } from '../../habits/habit-entry.entity.js';
import { HabitDayMarkRecord } from '../../habits/habit-day-mark.entity.js';
import { HABITS_MAX } from '../../habits/habit-limits.js';
import { HabitService } from '../../habits/habit.service.js';
import type { HabitDayMark } from '../../habits/habit-enums.js';
import { UndoConflictError } from '../undo-errors.js';
import { requireUnchanged, requireUntouched, type UndoKind } from '../undo-kind.js';

/** An entry logged (the app's, or the Public API's twin whose answer keeps it unanswered as `record`): deleted again. */
function entryLog(kind: string, mutation: string, publicAnswer: boolean): UndoKind {
  return {
    kind,
    mutation,
    async before({ em }, userId, args) {
      // The longest streak before the log, which the log may raise: its undo brings it back.
      const habit = await em.findOne(Habit, { id: args.habitId as string, userId }, { fields: ['longestStreak'] });
      return { longestStreak: habit?.longestStreak ?? 0 };
    },
    offer(_scope, _userId, _args, result, before) {
      const entry = (publicAnswer ? (result as { record?: HabitEntry }).record : result) as HabitEntry | undefined;
      const { longestStreak } = before as { longestStreak: number };
      return entry ? { recordId: entry.id, data: { updatedAt: entry.updatedAt.toISOString(), longestStreak } } : null;
    },
    async invert({ em, deps }, userId, offer) {
      requireUntouched(await em.findOne(HabitEntry, { id: offer.recordId, userId }, { fields: ['updatedAt'] }), offer, 'Habit entry');
      // The service's delete: the day's done-ness, the XP it earned and the streak follow exactly.
      await HabitService.forRequest({ em, deps }).deleteEntry(userId, offer.recordId, { longestStreak: offer.data.longestStreak as number });
    },
  };
}

/** A deleted entry: logged again with its habit, day, value and note (a new entry id; its XP and streak come back). */
const entryDelete: UndoKind = {
  kind: 'habit_entry_delete',
  mutation: 'deleteHabitEntry',
  async before({ em }, userId, args) {
    const entry = await em.findOne(HabitEntry, { id: args.entryId as string, userId }, { fields: ['habitId', 'dayId', 'value', 'note'] });
    return entry && { habitId: entry.habitId, dayId: entry.dayId, value: entry.value, note: entry.note ?? null };
  },
  offer(_scope, _userId, args, _result, before) {
    return before ? { recordId: args.entryId as string, data: before as Record<string, unknown> } : null;
  },
  async invert({ em, deps }, userId, offer) {
    const { habitId, dayId, value, note } = offer.data as { habitId: string; dayId: string; value: number; note: string | null };
    try {
      await HabitService.forRequest({ em, deps }).logEntry(userId, { habitId, dayId, value, note });
    } catch (error) {
      // The habit or its day was deleted since: nothing to log the entry on.
      if (error instanceof NotFoundError) throw new UndoConflictError('Habit');
      throw error;
    }
  },
};

/** A SKIP or REST mark set or cleared: the previous mark (or none) again, unless the mark changed since. */
const dayMark: UndoKind = {
  kind: 'habit_mark',
  mutation: 'markHabitDay',
  async before({ em }, userId, args) {
    const mark = await em.findOne(HabitDayMarkRecord, { habitId: args.habitId as string, dayId: args.dayId as string, userId }, { fields: ['mark'] });
    return { mark: mark?.mark ?? null };
  },
  offer(_scope, _userId, args, _result, before) {
    const previous = (before as { mark: HabitDayMark | null }).mark;
    const left = (args.mark as HabitDayMark | null | undefined) ?? null;
    if (previous === left) return null;
    return { recordId: args.habitId as string, data: { dayId: args.dayId, previous, left } };
  },
  async invert({ em, deps }, userId, offer) {
    const { dayId, previous, left } = offer.data as { dayId: string; previous: HabitDayMark | null; left: HabitDayMark | null };
    const now = await em.findOne(HabitDayMarkRecord, { habitId: offer.recordId, dayId, userId }, { fields: ['mark'] });
    if ((now?.mark ?? null) !== left) throw new UndoConflictError('Habit mark');
    await HabitService.forRequest({ em, deps }).markDay(userId, { habitId: offer.recordId, dayId, mark: previous });
  },
};

/** Archiving ↔ unarchiving, guarded by the habit's version; an unarchive undone keeps the first archiving's date. */
function archiveToggle(kind: string, mutation: string, archiving: boolean): UndoKind {
  return {
    kind,
    mutation,
    async before({ em }, userId, args) {
      const habit = await em.findOne(Habit, { id: args.habitId as string, userId }, { fields: ['archivedAt'] });
      return { archivedAt: habit?.archivedAt?.toISOString() ?? null };
    },
    offer(_scope, _userId, _args, result, before) {
      const { archivedAt } = before as { archivedAt: string | null };
      // Already as asked: the write changed nothing.
      if ((archivedAt !== null) === archiving) return null;
      const habit = result as Habit;
      return { recordId: habit.id, data: { version: habit.version, archivedAt } };
    },
    async invert({ em, deps }, userId, offer) {
      requireUnchanged(await em.findOne(Habit, { id: offer.recordId, userId }, { fields: ['version'] }), offer, 'Habit');
      const habits = HabitService.forRequest({ em, deps });
      if (archiving) await habits.unarchive(userId, offer.recordId);
      else await habits.archive(userId, offer.recordId, new Date(offer.data.archivedAt as string));
    },
  };
}

/** The person's habits in their order (ids), the list a reorder answers. */
async function habitOrder(em: EntityManager, userId: string, lock = false): Promise<string[]> {
  const habits = await em.find(Habit, { userId }, { orderBy: { position: 'asc', createdAt: 'asc', id: 'asc' }, fields: ['id'], limit: HABITS_MAX, ...(lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}) });
  return habits.map((h) => h.id);
}

/** A reorder: the previous order again, unless the order changed since (a habit added, moved or deleted). */
const reorder: UndoKind = {
  kind: 'habit_reorder',
  mutation: 'reorderHabits',
  before: ({ em }, userId) => habitOrder(em, userId),
  offer(_scope, userId, _args, result, before) {
    const left = (result as Habit[]).map((h) => h.id);
    const previous = before as string[];
    return left.join() === previous.join() ? null : { recordId: userId, data: { previous, left } };
  },
  async invert({ em, deps }, userId, offer) {
    const { previous, left } = offer.data as { previous: string[]; left: string[] };
    if ((await habitOrder(em, userId, true)).join() !== left.join()) throw new UndoConflictError('Habit order');
    await HabitService.forRequest({ em, deps }).reorder(userId, previous);
  },
};

export const HABIT_WRITES: readonly UndoKind[] = [
  entryLog('habit_entry_log', 'logHabitEntry', false),
  entryLog('public_habit_log', 'publicLogHabit', true),
  entryDelete,
  dayMark,
  archiveToggle('habit_archive', 'archiveHabit', true),
  archiveToggle('habit_unarchive', 'unarchiveHabit', false),
  reorder,
];
