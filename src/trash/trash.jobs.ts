import type { AppDeps } from '../core/context.js';
import { releaseDue } from './storage-releases.js';
import { TrashService } from './trash.service.js';

export const PURGE_TRASH_JOB = 'trash:purge';
export const RELEASE_STORAGE_JOB = 'trash:release-storage';
/** Chunks per run: a run is bounded, what is left waits for the next hour. */
const CHUNKS_PER_RUN = 50;

/**
 * Purges the trash entries whose retention ran out, every hour (one Agenda job of type `single`). Each
 * chunk commits on its own and locks its rows (SKIP LOCKED), so a restart or a second instance picks up
 * where it stopped and never purges an entry twice. Every 5 minutes, the storage a purge (or an empty, a
 * delete for good) could not delete is tried again, a bounded batch per run (storage-releases.ts).
 */
export function registerTrashJobs(deps: AppDeps): void {
  deps.jobs.agenda.define(
    PURGE_TRASH_JOB,
    async () => {
      const trash = new TrashService(deps.orm.em.fork(), deps);
      let purged = 0;
      for (let chunk = 0; chunk < CHUNKS_PER_RUN; chunk++) {
        const n = await trash.purgeChunk(new Date());
        purged += n;
        if (n === 0) break;
      }
      if (purged) deps.logger.info({ purged }, 'trash purged');
    },
    { concurrency: 1 },
  );
  deps.jobs.agenda.define(
    RELEASE_STORAGE_JOB,
    async () => {
      const { tried, done } = await releaseDue(deps, new Date());
      if (tried) deps.logger.info({ tried, done }, 'trash storage released');
    },
    { concurrency: 1 },
  );
  deps.jobs.attach({
    async start() {
      await deps.jobs.agenda.every('1 hour', PURGE_TRASH_JOB);
      await deps.jobs.agenda.every('5 minutes', RELEASE_STORAGE_JOB);
    },
    async stop() {},
  });
}
