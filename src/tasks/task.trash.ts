import { defineTrashKind } from '../trash/trash-kinds.js';
import { detachFrom } from './tasks.queries.js';

/** A "this and following" delete of an occurrence after the first: the series it ended, and from which date. */
export interface TaskTrashExtra {
  seriesId: string;
  endedFrom: string;
}

/**
 * A task comes back on its day (refused when the day is full: `day_task_limit`). An occurrence of a series
 * stays an exception of it: the series does not make that date again, the restored task stands for it.
 * A "this and following" delete's entry holds the later occurrences too, and brings them all back: after
 * the first task, the series stays ended before that date, so they come back as single tasks (as the
 * done ones the end left); on the first task, the whole series comes back with its rule.
 */
export const TASK_TRASH = defineTrashKind({
  kind: 'task',
  table: 'tasks',
  async afterRestore(em, userId, { extra }) {
    const ended = extra as TaskTrashExtra | undefined;
    if (ended?.seriesId) await detachFrom(em, userId, ended.seriesId, ended.endedFrom, new Date());
  },
});
