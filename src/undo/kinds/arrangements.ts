import type { EntityManager } from '@mikro-orm/postgresql';
import { DayPerimeterTask } from '../../planning/day-perimeter-task.entity.js';
import { PerimeterService } from '../../planning/perimeter.service.js';
import { Project } from '../../projects/project.entity.js';
import { ProjectTask } from '../../projects/project-task.entity.js';
import { ProjectTaskService } from '../../projects/project-task.service.js';
import { boardColumns, ProjectService, requireOwnProject } from '../../projects/project.service.js';
import { GroceryItem } from '../../nutrition/grocery-list.entity.js';
import { GroceryListService } from '../../nutrition/grocery-list.service.js';
import { NotFoundError } from '../../core/errors.js';
import { UndoConflictError } from '../undo-errors.js';
import { requireUnchanged, requireUntouched, type UndoKind } from '../undo-kind.js';

/** A card moved on its board: back to its previous column and place, unless it moved since (its version). */
const projectTaskMove: UndoKind = {
  kind: 'project_task_move',
  mutation: 'moveProjectTask',
  async before({ em }, userId, args) {
    const task = await em.findOne(ProjectTask, { id: args.taskId as string, projectId: args.projectId as string, userId }, { fields: ['columnId', 'order'] });
    return task && { columnId: task.columnId, order: task.order };
  },
  offer(_scope, _userId, args, result, before) {
    const previous = before as { columnId: string; order: number } | null;
    const task = result as ProjectTask;
    if (!previous || (previous.columnId === task.columnId && previous.order === task.order)) return null;
    return { recordId: task.id, data: { projectId: args.projectId, ...previous, version: task.version } };
  },
  async invert({ em }, userId, offer) {
    requireUnchanged(await em.findOne(ProjectTask, { id: offer.recordId, userId }, { fields: ['version'] }), offer, 'Project task');
    const { projectId, columnId, order } = offer.data as { projectId: string; columnId: string; order: number };
    try {
      await new ProjectTaskService(em).move(userId, projectId, offer.recordId, columnId, order);
    } catch (error) {
      // Its previous column was removed since.
      if (error instanceof NotFoundError) throw new UndoConflictError('Board');
      throw error;
    }
  },
};

type Column = { id: string; name: string; order: number };

async function columnsOf(em: EntityManager, userId: string, projectId: string): Promise<Column[] | null> {
  if (!(await em.count(Project, { id: projectId, userId }))) return null;
  return (await boardColumns(em, projectId)).map(({ id, name, order }) => ({ id, name, order }));
}

/**
 * A board's columns changed: the previous columns again (a removed column comes back empty, under a new
 * id; a column the write added goes, refused when it holds tasks), unless the board changed since.
 */
const boardUpdate: UndoKind = {
  kind: 'board_update',
  mutation: 'updateProjectBoard',
  before: ({ em }, userId, args) => columnsOf(em, userId, args.projectId as string),
  async offer({ em }, userId, args, _result, before) {
    if (!before) return null;
    const left = await columnsOf(em, userId, args.projectId as string);
    if (!left || JSON.stringify(left) === JSON.stringify(before)) return null;
    return { recordId: args.projectId as string, data: { previous: before, left } };
  },
  async invert({ em }, userId, offer) {
    const { previous, left } = offer.data as { previous: Column[]; left: Column[] };
    await requireOwnProject(em, userId, offer.recordId, undefined, true);
    const current = await columnsOf(em, userId, offer.recordId);
    if (JSON.stringify(current) !== JSON.stringify(left)) throw new UndoConflictError('Board');
    const kept = new Set(left.map((c) => c.id));
    const columns = previous.map((c) => ({ id: kept.has(c.id) ? c.id : null, name: c.name, order: c.order }));
    await new ProjectService(em).updateBoard(userId, offer.recordId, columns);
  },
};

async function perimeterOf(em: EntityManager, dayId: string): Promise<string[]> {
  return (await em.find(DayPerimeterTask, { dayId }, { orderBy: { position: 'asc' }, fields: ['perimeterTaskId'] })).map((p) => p.perimeterTaskId);
}

/** A day's perimeter set: the previous one again (none: emptied), unless it was set again since. */
const dayPerimeter: UndoKind = {
  kind: 'day_perimeter_set',
  mutation: 'setDayPerimeter',
  // Read before the write checks the day's owner: kept only when the write succeeded (it was the caller's).
  before: ({ em }, _userId, args) => perimeterOf(em, args.dayId as string),
  offer(_scope, _userId, args, _result, before) {
    const left = args.taskIds as string[];
    const previous = before as string[];
    return left.join() === previous.join() ? null : { recordId: args.dayId as string, data: { previous, left } };
  },
  async invert({ em }, userId, offer) {
    const { previous, left } = offer.data as { previous: string[]; left: string[] };
    if ((await perimeterOf(em, offer.recordId)).join() !== left.join()) throw new UndoConflictError('Day perimeter');
    const perimeter = new PerimeterService(em);
    try {
      if (previous.length) await perimeter.setForDay(userId, offer.recordId, previous);
      else await perimeter.clearForDay(userId, offer.recordId);
    } catch (error) {
      // One of its previous tasks was deleted since.
      if (error instanceof NotFoundError) throw new UndoConflictError('Day perimeter');
      throw error;
    }
  },
};

/** A grocery item added by hand: removed again, unless it changed since (ticked, say). */
const groceryItemAdd: UndoKind = {
  kind: 'grocery_item_add',
  mutation: 'addGroceryItem',
  offer(_scope, _userId, _args, result) {
    const item = result as GroceryItem;
    return { recordId: item.id, data: { listId: item.listId, updatedAt: item.updatedAt.toISOString() } };
  },
  async invert({ em }, userId, offer) {
    requireUntouched(await em.findOne(GroceryItem, { id: offer.recordId, userId }, { fields: ['updatedAt'] }), offer, 'Grocery item');
    await new GroceryListService(em).removeItem(userId, offer.data.listId as string, offer.recordId);
  },
};

export const ARRANGEMENTS: readonly UndoKind[] = [projectTaskMove, boardUpdate, dayPerimeter, groceryItemAdd];
