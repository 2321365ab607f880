import type { BackoffContext } from 'agenda';
import type { AppDeps } from '../../core/context.js';
import type { StorageAdapterName } from '../../files/storage/storage.js';
import { StoragePurge } from './storage-purge.entity.js';

export const PURGE_STORAGE_JOB = 'portability:purge-storage';

/** Retried until storage answers: 5 s, 10 s, 20 s … at most an hour apart, never given up. */
export const purgeBackoff = (context: BackoffContext): number => Math.min(5000 * 2 ** Math.min(context.attempt - 1, 20), 3_600_000);

export async function enqueuePurge(deps: AppDeps, purgeId: string): Promise<void> {
  await deps.jobs.agenda.now(PURGE_STORAGE_JOB, { purgeId });
}

/** Removes every blob below the purge's prefix on each adapter, then the purge row. Throws to be retried. */
export async function runPurge(deps: AppDeps, purgeId: string): Promise<void> {
  const em = deps.orm.em.fork();
  const purge = await em.findOne(StoragePurge, { id: purgeId });
  if (!purge) return; // done before (a second job for the same purge)
  const rt = deps.files;
  try {
    for (const adapter of purge.adapters) await rt.adapter(adapter as StorageAdapterName).deletePrefix(purge.prefix);
  } catch (error) {
    purge.attempts += 1;
    purge.lastError = (error as Error).message?.slice(0, 1000) ?? String(error);
    await em.flush();
    deps.logger.warn({ err: error, purgeId }, 'storage purge failed; retrying');
    throw error;
  }
  await em.nativeDelete(StoragePurge, { id: purge.id });
}

/**
 * The purge job, and on start a sweep that queues again every purge still recorded (its job may have
 * been lost between the deletion's commit and the queueing). Deleting a prefix twice is harmless.
 */
export function registerDeletionJobs(deps: AppDeps): void {
  deps.jobs.agenda.define<{ purgeId: string }>(PURGE_STORAGE_JOB, (job) => runPurge(deps, job.attrs.data.purgeId), {
    concurrency: 2,
    removeOnComplete: true,
    backoff: purgeBackoff,
  });
  deps.jobs.attach({
    async start() {
      const stale = await deps.orm.em.fork().find(StoragePurge, { createdAt: { $lt: new Date(Date.now() - 60_000) } }, { fields: ['id'] });
      for (const purge of stale) await enqueuePurge(deps, purge.id).catch((error) => deps.logger.error({ err: error }, 'could not queue a storage purge'));
    },
    async stop() {},
  });
}
