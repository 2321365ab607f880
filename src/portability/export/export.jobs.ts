import type { AppDeps } from '../../core/context.js';
import { EXPORT_JOB, ExportService } from './export.service.js';

/**
 * The account export job: one at a time per process (it reads the whole account and writes a zip).
 * The handler records a failure on the export itself and never throws, so Agenda does not retry it;
 * the user starts a new export instead.
 */
export function registerExportJobs(deps: AppDeps): void {
  const service = new ExportService(deps);
  deps.jobs.agenda.define<{ exportId: string }>(EXPORT_JOB, (job) => service.run(job.attrs.data.exportId), {
    concurrency: 1,
    removeOnComplete: true,
  });
}
