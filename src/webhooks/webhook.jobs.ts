import type { AppDeps } from '../core/context.js';
import { WebhookEngine } from './webhook-engine.js';

/** Defines the delivery job and runs the outbox dispatcher alongside the job runner. */
export function registerWebhookJobs(deps: AppDeps): void {
  WebhookEngine.register(deps);
}
