import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readRows } from '../core/database/read-rows.js';
import { groupUnder } from '../core/group-under.js';
import { BoardColumn } from './board-column.entity.js';
import { ProjectTask } from './project-task.entity.js';

/**
 * Per-request loaders of the projects module (plain read-only rows): a board costs one statement for
 * all its columns and one for all their tasks, whatever their number. They key on ids reached through
 * an owner-checked read (a project, a column of it), so need no user scope of their own.
 */
export function createProjectsLoaders(em: EntityManager) {
  return {
    columnsByProjectId: new DataLoader<string, BoardColumn[]>(async (projectIds) => {
      const rows = await readRows(em, BoardColumn, { where: 'projectId', values: projectIds, orderBy: ['order', 'id'] });
      return groupUnder(projectIds, rows, (c) => c.projectId);
    }),

    tasksByColumnId: new DataLoader<string, ProjectTask[]>(async (columnIds) => {
      const rows = await readRows(em, ProjectTask, { where: 'columnId', values: columnIds, orderBy: ['order', 'id'] });
      return groupUnder(columnIds, rows, (t) => t.columnId);
    }),
  };
}

export type ProjectsLoaders = ReturnType<typeof createProjectsLoaders>;
