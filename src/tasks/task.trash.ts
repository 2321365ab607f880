import { defineTrashKind } from '../trash/trash-kinds.js';

/**
 * A task comes back on its day (refused when the day is full: `day_task_limit`). An occurrence of a series
 * stays an exception of it: the series does not make that date again, the restored task stands for it.
 */
export const TASK_TRASH = defineTrashKind({ kind: 'task', table: 'tasks' });
