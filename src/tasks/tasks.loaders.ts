import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { TaskCategory } from './task-category.entity.js';
import { Task } from './task.entity.js';

/**
 * Per-request loaders of the tasks module. They key on ids the caller already reached through an
 * owner-checked read (a task's category, a day's tasks), so they need no user scope of their own.
 */
export function createTasksLoaders(em: EntityManager) {
  return {
    /** A category by id, or null when it no longer exists. */
    categoryById: new DataLoader<string, TaskCategory | null>(async (ids) => {
      const rows = await em.find(TaskCategory, { id: { $in: [...ids] } });
      const byId = new Map(rows.map((c) => [c.id, c]));
      return ids.map((id) => byId.get(id) ?? null);
    }),

    /** The tasks of each day, oldest first; one query for many days. */
    tasksByDayId: new DataLoader<string, Task[]>(async (dayIds) => {
      const rows = await em.find(Task, { dayId: { $in: [...dayIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
      const byDay = new Map<string, Task[]>(dayIds.map((id) => [id, []]));
      for (const task of rows) byDay.get(task.dayId!)?.push(task);
      return dayIds.map((id) => byDay.get(id)!);
    }),
  };
}

export type TasksLoaders = ReturnType<typeof createTasksLoaders>;
