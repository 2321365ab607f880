import { backoffStrategies } from 'agenda';
import type { AppDeps } from '../core/context.js';
import { GENERATE_VARIANTS_JOB, VARIANT_JOB_CONCURRENCY } from './files-runtime.js';

/**
 * Eager mode: right after an upload, the thumbnail, small, medium and large variants are made on the
 * instance that stored it (VariantWorker); this job is its durable backstop. A bad image marks its
 * variants failed (VariantService); only storage or database failures reach Agenda, which retries
 * them a few times. The handler never throws past Agenda.
 */
export function registerFileJobs(deps: AppDeps): void {
  const worker = deps.variants;
  deps.jobs.agenda.define<{ fileId: string }>(GENERATE_VARIANTS_JOB, (job) => worker.run(job.attrs.data.fileId), {
    concurrency: VARIANT_JOB_CONCURRENCY,
    removeOnComplete: true,
    backoff: backoffStrategies.exponential({ delay: 2000, maxRetries: 3 }),
  });
}
