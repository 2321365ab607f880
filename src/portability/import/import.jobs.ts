import type { AppDeps } from '../../core/context.js';
import { filesRuntime } from '../../files/files-runtime.js';
import { ImportService } from './import.service.js';

export const IMPORT_JOB = 'portability:import';

/** Queues the import's job (Agenda): any instance runs it, also after a restart. */
export async function enqueueImport(deps: AppDeps, importId: string): Promise<void> {
  await deps.jobs.agenda.now(IMPORT_JOB, { importId });
}

/**
 * One import per job. The handler never throws: a failure rolls the import's transaction back and
 * marks it failed (ImportService.run), and the user may upload again (imports are idempotent).
 */
export function registerImportJobs(deps: AppDeps): void {
  deps.jobs.agenda.define<{ importId: string }>(
    IMPORT_JOB,
    async (job) => {
      const rt = await filesRuntime(deps);
      await new ImportService(deps.orm.em.fork()).run(job.attrs.data.importId, rt, deps.logger);
    },
    { concurrency: 2, removeOnComplete: true },
  );
}
