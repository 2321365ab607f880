import type { Orm } from '../core/database/orm.js';
import { FactDispatcher } from '../core/events/fact-dispatcher.js';
import { gamificationReactor } from '../gamification/gamification.reactor.js';
import { taskSeriesReactor } from '../tasks/task-series.reactor.js';

/**
 * The in-process reactors to the domain's facts (events and internal facts), run in the transaction
 * that recorded them. Cross-cutting features subscribe here; domain services never call them.
 */
export function registerFactReactors(orm: Orm): void {
  orm.em.getEventManager().registerSubscriber(new FactDispatcher([gamificationReactor, taskSeriesReactor]));
}
