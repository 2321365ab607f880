import type { AppDeps } from '../core/context.js';
import { runStreakSweep } from './habit-streak-sweep.js';

export const STREAK_SWEEP_JOB = 'habits:streak-sweep';

/**
 * Every ten minutes, the running streaks a passing day may have broken are computed on their owner's
 * today (habit-streak-sweep.ts): `habit_streak_updated` reaches webhooks within ten minutes of the
 * person's midnight, not only at their next write. One Agenda job of type `single` (several instances
 * share it; rows are claimed with SKIP LOCKED), its lock kept alive while it runs.
 */
export function registerHabitJobs(deps: AppDeps): void {
  deps.jobs.agenda.define(
    STREAK_SWEEP_JOB,
    async (job) => {
      const run = await deps.jobs.keepingLock(job, (signal) => runStreakSweep(deps.orm.em.fork(), { signal }));
      if (run.updated) deps.logger.info({ ...run }, 'habit streaks updated by the passing day');
    },
    { concurrency: 1 },
  );
  deps.jobs.attach({
    async start() {
      await deps.jobs.agenda.every('10 minutes', STREAK_SWEEP_JOB);
    },
    async stop() {},
  });
}
