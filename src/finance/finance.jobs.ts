import type { AppDeps } from '../core/context.js';
import { bookDueTransactions } from './recurring-bookings.js';

export const BOOK_RECURRING_TRANSACTIONS_JOB = 'finance:book-recurring-transactions';

/**
 * Books the recurring transactions whose date has come, every minute (one Agenda job of type `single`:
 * several instances share it, and whichever runs it, two runs at once or a retry still book each date
 * once: see bookDueTransactions). A run is bounded; what is left waits for the next minute.
 */
export function registerFinanceJobs(deps: AppDeps): void {
  deps.jobs.agenda.define(
    BOOK_RECURRING_TRANSACTIONS_JOB,
    async () => {
      const run = await deps.jobs.untilStopped((signal) => bookDueTransactions(deps.orm.em.fork(), { logger: deps.logger, signal }));
      if (run.booked) deps.logger.info({ booked: run.booked, series: run.series, more: run.more }, 'recurring transactions booked');
    },
    { concurrency: 1 },
  );
  deps.jobs.attach({
    async start() {
      await deps.jobs.agenda.every('1 minute', BOOK_RECURRING_TRANSACTIONS_JOB);
    },
    async stop() {},
  });
}
