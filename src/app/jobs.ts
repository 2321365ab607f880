import type { AppDeps } from '../core/context.js';
import { registerFileJobs } from '../files/variant.jobs.js';
import { registerExportJobs } from '../portability/export/export.jobs.js';
import { registerImportJobs } from '../portability/import/import.jobs.js';
import { registerDeletionJobs } from '../portability/deletion/deletion.jobs.js';
import { registerFinanceJobs } from '../finance/finance.jobs.js';
import { registerInsightsJobs } from '../insights/insights.jobs.js';
import { registerHabitJobs } from '../habits/habits.jobs.js';
import { registerIdempotencyJobs } from '../idempotency/idempotency.jobs.js';
import { registerTrashJobs } from '../trash/trash.jobs.js';
import { registerUndoJobs } from '../undo/undo.jobs.js';
import { registerSyncJobs } from '../sync/sync.jobs.js';

/**
 * Every background job definition (Agenda). A domain module with jobs adds its `register…Jobs(deps)`
 * call here; definitions must exist before the runner starts so queued jobs find their handler. The
 * engines that run beside the runner (webhooks, reminders, image variants) are built with the app's
 * parts in src/app/server.ts.
 */
export function registerJobs(deps: AppDeps): void {
  registerFileJobs(deps);
  registerExportJobs(deps);
  registerImportJobs(deps);
  registerDeletionJobs(deps);
  registerFinanceJobs(deps);
  registerInsightsJobs(deps);
  registerHabitJobs(deps);
  registerIdempotencyJobs(deps);
  registerTrashJobs(deps);
  registerUndoJobs(deps);
  registerSyncJobs(deps);
}
