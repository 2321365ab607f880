import { addDays } from '../core/dates.js';
import type { FactReactor } from '../core/events/fact-dispatcher.js';
import { TaskSeries } from './task-series.js';

/**
 * Recurring tasks reacting to a generated week, in the transaction that generates it (registered by
 * the app wiring): every series of the user with a date in that week gets its occurrence on that
 * day. One bounded read of the user's series alive that week, one read of the week's days, then the
 * inserts (`on conflict do nothing` on the series and date, so nothing is made twice).
 */
export const taskSeriesReactor: FactReactor = {
  reactsTo: (name) => name === 'week_generated',
  async react(em, facts) {
    for (const fact of facts) {
      if (fact.name !== 'week_generated') continue;
      await new TaskSeries(em, fact.userId).makeBetween(fact.data.startDate, addDays(fact.data.startDate, 6));
    }
  },
};
