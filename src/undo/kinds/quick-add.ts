import type { QuickKind } from '../../quick-add/draft.js';
import type { QuickAddAnswer } from '../../quick-add/quick-add.service.js';
import type { HabitEntry } from '../../habits/habit-entry.entity.js';
import type { UndoKind, UndoOffer } from '../undo-kind.js';
import { DAY_LOGS } from './day-logs.js';
import { HABIT_WRITES } from './habits.js';
import { RECORD_WRITES } from './record-kinds.js';

/**
 * The undo kind of the single write each quick-add kind is (the same domain service call), whose offer
 * and inverse a quick add reuses: one delete path per record, whichever surface made it. null: that
 * kind has no inverse, so the quick add offers no token (a recurring task made a series, as `createTask`
 * with a recurrence offers none).
 */
const SINGLE_WRITE: Readonly<Record<QuickKind, string | null>> = {
  task: 'task_create',
  recurring_task: null,
  habit: 'habit_create',
  habit_entry: 'habit_entry_log',
  water: 'water_log',
  steps: 'steps_log',
  sleep: 'sleep_log',
  mood: 'mood_log',
  weight: 'body_measurement_log',
  expense: 'transaction_create',
  income: 'transaction_create',
  training: 'training_session_create',
  reading: 'reading_session_create',
  social: 'social_happening_create',
};

const singles = new Map([...RECORD_WRITES, ...DAY_LOGS, ...HABIT_WRITES].map((kind) => [kind.kind, kind]));

/** What the single write's kind reads before its write, taken from the domain's answer instead (read under the write's lock). */
function beforeOf(kind: QuickKind, record: unknown): unknown {
  return kind === 'habit_entry' ? { longestStreak: (record as HabitEntry).longestStreakBefore ?? 0 } : undefined;
}

/** One record the quick add made: its single write's kind and that kind's offer (the id and the stamp it left). */
interface Made extends UndoOffer {
  kind: string;
}

/**
 * Quick add (`quickAdd`, and the Public API's `publicQuickAdd`): the offer keeps every record the line
 * made, each as its single write's offer; the inverse takes each back through that write's inverse, in
 * the undo's one transaction, so a record changed since (409) rolls back the others: all or none.
 */
function quickAddKind(kind: string, mutation: string): UndoKind {
  return {
    kind,
    mutation,
    async offer(scope, userId, _args, result) {
      const written = (result as QuickAddAnswer).written;
      if (!written.length) return null; // a dry run wrote nothing
      const made: Made[] = [];
      for (const { kind: quick, record } of written) {
        const single = singles.get(SINGLE_WRITE[quick] ?? '');
        const offer = single && (await single.offer(scope, userId, {}, record, beforeOf(quick, record)));
        if (!single || !offer) return null;
        made.push({ kind: single.kind, ...offer });
      }
      return { recordId: made[0]!.recordId, data: { records: made } };
    },
    async invert(scope, userId, offer) {
      // The last made first (none depends on another today; a later one could on an earlier one).
      for (const { kind: name, recordId, data } of [...(offer.data.records as Made[])].reverse()) {
        await singles.get(name)!.invert(scope, userId, { recordId, data });
      }
    },
  };
}

export const QUICK_ADDS: readonly UndoKind[] = [quickAddKind('quick_add', 'quickAdd'), quickAddKind('public_quick_add', 'publicQuickAdd')];
