import DataLoader from 'dataloader';
import type { DayFieldSources } from '../planning/day-fields.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readRows } from '../core/database/read-rows.js';
import { TaskCategory } from './task-category.entity.js';
import { Task } from './task.entity.js';

/**
 * Per-request loaders of the tasks module. They key on ids the caller already reached through an
 * owner-checked read (a task's category, a day's tasks), so they need no user scope of their own.
 * They return plain read-only rows (src/core/database/read-rows.ts), not managed entities.
 */
export function createTasksLoaders(em: EntityManager) {
  return {
    /** A category by id, or null when it no longer exists. */
    categoryById: new DataLoader<string, TaskCategory | null>(async (ids) => {
      const rows = await readRows(em, TaskCategory, { where: 'id', values: ids });
      const byId = new Map(rows.map((c) => [c.id, c]));
      return ids.map((id) => byId.get(id) ?? null);
    }),

    /** The tasks of each day, oldest first; one query for many days. */
    tasksByDayId: new DataLoader<string, Task[]>(async (dayIds) => {
      const rows = await readRows(em, Task, { where: 'dayId', values: dayIds, orderBy: ['createdAt', 'id'] });
      const byDay = new Map<string, Task[]>(dayIds.map((id) => [id, []]));
      for (const task of rows) byDay.get(task.dayId!)?.push(task);
      return dayIds.map((id) => byDay.get(id)!);
    }),
  };
}

export type TasksLoaders = ReturnType<typeof createTasksLoaders>;

/** The Day fields this domain adds and the records they read (followed by the day and week subscriptions). */
export const TASKS_DAY_FIELDS = { tasks: ['Task', 'TaskCategory'] } as const satisfies DayFieldSources;
