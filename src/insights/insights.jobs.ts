import type { AppDeps } from '../core/context.js';
import { runNightlyInsights } from './nightly-insights.js';

export const NIGHTLY_INSIGHTS_JOB = 'insights:nightly';

/**
 * Looks every ten minutes for people whose night has come (03:00 in their time zone, once per local
 * date) and builds their aggregates and insights in committed batches (nightly-insights.ts). One Agenda
 * job of type `single`: several instances share it, and two runs at once share the due people. The lock
 * is kept alive while a long catch-up runs, and a shutdown stops it after its batch.
 */
export function registerInsightsJobs(deps: AppDeps): void {
  deps.jobs.agenda.define(
    NIGHTLY_INSIGHTS_JOB,
    async (job) => {
      const run = await deps.jobs.keepingLock(job, (signal) => runNightlyInsights(deps.orm.em.fork(), { logger: deps.logger, signal }));
      if (run.people) deps.logger.info({ ...run }, 'nightly insights built');
    },
    { concurrency: 1 },
  );
  deps.jobs.attach({
    async start() {
      await deps.jobs.agenda.every('10 minutes', NIGHTLY_INSIGHTS_JOB);
    },
    async stop() {},
  });
}
