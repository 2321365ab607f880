import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../core/events/record-event.js';
import { DEFAULT_TIMEZONE } from '../settings/user-settings.entity.js';
import { Habit } from './habit.entity.js';
import { claimStaleStreaks } from './habit.queries.js';
import { HabitService } from './habit.service.js';

/** Habits one batch claims and recomputes (one transaction). */
export const SWEEP_BATCH_HABITS = 200;
/** Batches one run makes at most; the habits left are claimed at the next run. */
export const SWEEP_MAX_BATCHES = 20;

export interface StreakSweepOptions {
  /** The instant whose local dates decide what is stale (default: now). */
  now?: Date;
  onlyUserIds?: readonly string[];
  batchHabits?: number;
  maxBatches?: number;
  signal?: AbortSignal;
}

export interface StreakSweepRun {
  habits: number;
  /** `habit_streak_updated` events recorded. */
  updated: number;
  /** Stopped at the batch cap with habits possibly left. */
  more: boolean;
}

/**
 * A streak broken (or kept by a freeze) by a day passing, without any write: the running streaks
 * computed before their owner's today are computed on it, stored, and a changed one records
 * `habit_streak_updated` as a write would. Bounded (batches of SWEEP_BATCH_HABITS, SWEEP_MAX_BATCHES a
 * run) and idempotent: a habit done is stamped with today (`streak_computed_on`) and not claimed again
 * that date; its history read is the writes' (per person, a fixed number of statements).
 */
export async function runStreakSweep(root: EntityManager, options: StreakSweepOptions = {}): Promise<StreakSweepRun> {
  const now = options.now ?? new Date();
  const batch = options.batchHabits ?? SWEEP_BATCH_HABITS;
  const run: StreakSweepRun = { habits: 0, updated: 0, more: false };
  for (let n = 0; n < (options.maxBatches ?? SWEEP_MAX_BATCHES); n++) {
    if (options.signal?.aborted) return { ...run, more: true };
    const claimed = await root.fork().transactional(async (em) => {
      const stale = await claimStaleStreaks(em, now, DEFAULT_TIMEZONE, batch, options.onlyUserIds ?? null);
      if (!stale.length) return 0;
      const habits = await em.find(Habit, { id: { $in: stale.map((s) => s.habitId) } });
      const byUser = new Map<string, Habit[]>();
      for (const habit of habits) byUser.set(habit.userId, [...(byUser.get(habit.userId) ?? []), habit]);
      const service = new HabitService(em, () => now);
      for (const [userId, own] of byUser) {
        const today = stale.find((s) => s.userId === userId)!.today;
        for (const [i, streak] of (await service.streaksOn(userId, own, today)).entries()) {
          const habit = own[i]!;
          if (streak.current !== habit.currentStreak) {
            recordEvent(em, userId, 'habit_streak_updated', { habitId: habit.id, currentStreak: streak.current, longestStreak: streak.longest, updatedAt: now.toISOString() }, now);
            run.updated++;
          }
          habit.currentStreak = streak.current;
          habit.longestStreak = streak.longest;
          habit.streakComputedOn = today;
        }
      }
      await em.flush();
      return stale.length;
    });
    run.habits += claimed;
    if (claimed < batch) return run;
  }
  return { ...run, more: true };
}
