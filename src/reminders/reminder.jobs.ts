import type { AppDeps } from '../core/context.js';
import { ReminderEngine } from './reminder-engine.js';

/** Runs the reminder scanner and dispatcher alongside the job runner (no Agenda job per reminder). */
export function registerReminderJobs(deps: AppDeps): void {
  ReminderEngine.register(deps);
}
