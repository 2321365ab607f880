import type { AppDeps } from '../../core/context.js';
import { serviceFor } from '../../core/request-services.js';
import { IMPORT_STALE_SECONDS, ImportService } from './import.service.js';

export const IMPORT_JOB = 'portability:import';
/** How long after its runner's last sign of life another instance may run a job (Agenda's lock). */
const LOCK_LIFETIME_MS = IMPORT_STALE_SECONDS * 1000;
/** A user's second import waits this long for the first to finish before it looks again. */
const WAIT_FOR_OTHER_MS = 5_000;
/** An import stopped by a shutdown is queued again this far ahead (another instance, or this one restarted). */
const RESUME_AFTER_STOP_MS = 2_000;

/** Queues the import's job (Agenda): any instance runs it, also after a restart. */
export async function enqueueImport(deps: AppDeps, importId: string, delayMs = 0): Promise<void> {
  if (delayMs) await deps.jobs.agenda.schedule(new Date(Date.now() + delayMs), IMPORT_JOB, { importId });
  else await deps.jobs.agenda.now(IMPORT_JOB, { importId });
}

/**
 * One import per job, in committed chunks bounded in time (IMPORT_CHUNK_MS, a third of the lock at
 * most). The job runner renews Agenda's lock while the import runs (`keepingLock`), so a running import
 * is never given to a second instance; when its instance dies, Agenda runs the job again after the
 * lock's lifetime and the import goes on from its last chunk. On shutdown, or when the lock is lost all
 * the same (Agenda cancelled the job), the run stops after its chunk and queues itself again. The
 * handler never throws: a failure marks the import failed.
 */
export function registerImportJobs(deps: AppDeps): void {
  deps.jobs.agenda.define<{ importId: string }>(
    IMPORT_JOB,
    (job) =>
      deps.jobs.keepingLock(job, async (signal) => {
        const importId = job.attrs.data.importId;
        const rt = deps.files;
        const result = await serviceFor({ deps, em: deps.orm.em.fork() }, ImportService).run(importId, rt, deps.logger, { signal, chunkMs: deps.config.importChunkMs });
        if (result === 'wait') await enqueueImport(deps, importId, WAIT_FOR_OTHER_MS);
        // Later, not now: this instance is stopping (or lost the job) and must not take it again itself at once.
        if (result === 'stopped') await enqueueImport(deps, importId, RESUME_AFTER_STOP_MS);
      }),
    { concurrency: 2, lockLifetime: LOCK_LIFETIME_MS, removeOnComplete: true },
  );
}
