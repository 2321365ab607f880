import type { AppDeps } from '../core/context.js';
import { registerWebhookJobs } from '../webhooks/webhook.jobs.js';
import { registerFileJobs } from '../files/variant.jobs.js';
import { registerExportJobs } from '../portability/export/export.jobs.js';
import { registerImportJobs } from '../portability/import/import.jobs.js';
import { registerDeletionJobs } from '../portability/deletion/deletion.jobs.js';
import { registerReminderJobs } from '../reminders/reminder.jobs.js';
import { registerFinanceJobs } from '../finance/finance.jobs.js';

/**
 * Every background job definition (Agenda). A domain module with jobs adds its `register…Jobs(deps)`
 * call here; definitions must exist before the runner starts so queued jobs find their handler.
 */
export function registerJobs(deps: AppDeps): void {
  registerWebhookJobs(deps);
  registerFileJobs(deps);
  registerExportJobs(deps);
  registerImportJobs(deps);
  registerDeletionJobs(deps);
  registerReminderJobs(deps);
  registerFinanceJobs(deps);
}
