import { backoffStrategies } from 'agenda';
import type { AppDeps } from '../core/context.js';
import { filesRuntime, GENERATE_VARIANTS_JOB, VARIANT_JOB_CONCURRENCY } from './files-runtime.js';
import { VariantService } from './variant.service.js';

/**
 * Eager mode: right after an upload, one job makes the thumbnail, small, medium and large variants.
 * A bad image marks its variants failed (VariantService); only storage or database failures reach
 * Agenda, which retries them a few times. The handler never throws past Agenda.
 */
export function registerFileJobs(deps: AppDeps): void {
  deps.jobs.agenda.define<{ fileId: string }>(
    GENERATE_VARIANTS_JOB,
    async (job) => {
      const { fileId } = job.attrs.data;
      const rt = await filesRuntime(deps);
      await new VariantService(deps.orm.em.fork(), rt).ensureAll(fileId);
    },
    { concurrency: VARIANT_JOB_CONCURRENCY, backoff: backoffStrategies.exponential({ delay: 2000, maxRetries: 3 }) },
  );
}
