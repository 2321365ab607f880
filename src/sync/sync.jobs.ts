import type { AppDeps } from '../core/context.js';
import { purgeFeed } from './feed-purge.js';

export const FEED_PURGE_JOB = 'sync:purge-feed';
const DAY_MS = 86_400_000;

/** Every hour, the change-feed rows older than SYNC_RETENTION_DAYS go (feed-purge.ts); one job for all instances. */
export function registerSyncJobs(deps: AppDeps): void {
  deps.jobs.agenda.define(
    FEED_PURGE_JOB,
    async (job) => {
      const before = new Date(Date.now() - deps.config.syncRetentionDays * DAY_MS);
      const removed = await deps.jobs.keepingLock(job, (signal) => purgeFeed(deps.orm.em.fork(), before, signal));
      if (removed) deps.logger.info({ removed }, 'change feed purged');
    },
    { concurrency: 1 },
  );
  deps.jobs.attach({
    async start() {
      await deps.jobs.agenda.every('1 hour', FEED_PURGE_JOB);
    },
    async stop() {},
  });
}
