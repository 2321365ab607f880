import { withExpectedVersion } from '../core/database/expected-version.js';
import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError } from '../core/errors.js';
import type { Page } from '../core/pagination.js';
import { findPage } from '../core/database/find-page.js';
import { TaskCategory } from '../tasks/task-category.entity.js';
import { statusOfColumn } from './board-status.js';
import { requireOwnDeadline } from './deadline.service.js';
import { boardColumns, requireOwnProject } from './project.service.js';
import { ProjectTask } from './project-task.entity.js';
import type { CreateProjectTaskArgs, ListProjectTasksArgs, UpdateProjectTaskArgs } from './projects.types.js';
import { requireOwnTags } from './tag.service.js';
import { moveToTrash } from '../trash/trash-kinds.js';
import { PROJECT_TASK_TRASH } from './project-task.trash.js';

type Links = Pick<CreateProjectTaskArgs, 'deadlineId' | 'categoryIds' | 'tagIds'>;

/** What ProjectTaskService.findOwn narrows by. */
export interface OwnTaskFilter {
  projectId?: string;
  taskId?: string;
  titleContains?: string;
  dueFrom?: Date;
  dueUntil?: Date;
}

/** Each id must be one of the user's task categories (else NOT_FOUND naming `field`). */
async function requireOwnCategories(em: EntityManager, userId: string, ids: string[], field = 'categoryIds'): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const found = await em.count(TaskCategory, { id: { $in: unique }, userId });
  if (found !== unique.length) throw new NotFoundError('Task category', { field });
  return unique;
}

/** `%` and `_` in a search are plain characters. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The cards of a project's board. Every change to where tasks sit (create, move, delete) locks the
 * project's row first, so concurrent changes run one after another and each column's orders stay
 * 0..n-1 without gaps.
 */

type ProjectTaskChanges = Omit<UpdateProjectTaskArgs, 'projectId' | 'taskId' | 'expectedVersion'>;
export class ProjectTaskService {
  constructor(private readonly em: EntityManager) {}

  async list(userId: string, args: ListProjectTasksArgs): Promise<Page<ProjectTask>> {
    await requireOwnProject(this.em, userId, args.projectId);
    // A filter naming another user's record answers 404 naming it, like an id in a body.
    if (args.deadlineId) await requireOwnDeadline(this.em, userId, args.deadlineId, 'deadlineId');
    if (args.categoryId) await requireOwnCategories(this.em, userId, [args.categoryId], 'categoryId');
    if (args.tagId) await requireOwnTags(this.em, userId, [args.tagId], 'tagId');
    const where: FilterQuery<ProjectTask> & Record<string, unknown> = { userId, projectId: args.projectId };
    if (args.status) where.status = args.status;
    if (args.deadlineId) where.deadlineId = args.deadlineId;
    if (args.categoryId) where.categoryIds = { $contains: [args.categoryId] };
    if (args.tagId) where.tagIds = { $contains: [args.tagId] };
    if (args.search) where.$or = [{ title: { $ilike: likePattern(args.search) } }, { description: { $ilike: likePattern(args.search) } }];
    return findPage(this.em, ProjectTask, where, { createdAt: 'asc', id: 'asc' }, args);
  }

  /**
   * The caller's tasks across their projects, at most `limit` (the connector finds a card by id or title
   * without its project, and lists due dates): narrowed by project, id, a title containing `titleContains`
   * (any case), or a due date in `dueFrom`..`dueUntil` (then not done, soonest first); else oldest first.
   */
  async findOwn(userId: string, filter: OwnTaskFilter, limit: number): Promise<ProjectTask[]> {
    const where: FilterQuery<ProjectTask> & Record<string, unknown> = { userId };
    if (filter.projectId) where.projectId = filter.projectId;
    if (filter.taskId) where.id = filter.taskId;
    if (filter.titleContains) where.title = { $ilike: likePattern(filter.titleContains) };
    const byDue = !!(filter.dueFrom || filter.dueUntil);
    if (byDue) {
      where.dueDate = { ...(filter.dueFrom ? { $gte: filter.dueFrom } : { $ne: null }), ...(filter.dueUntil ? { $lte: filter.dueUntil } : {}) };
      where.status = { $ne: 'done' };
    }
    return this.em.find(ProjectTask, where, { orderBy: byDue ? { dueDate: 'asc', id: 'asc' } : { createdAt: 'asc', id: 'asc' }, limit });
  }

  async get(userId: string, projectId: string, taskId: string): Promise<ProjectTask> {
    const task = await this.em.findOne(ProjectTask, { id: taskId, projectId, userId });
    if (!task) throw new NotFoundError('Project task');
    return task;
  }

  /** A new task goes last in the board's first column, as `todo`. */
  async create(userId: string, input: CreateProjectTaskArgs): Promise<ProjectTask> {
    return this.em.transactional(async (em) => {
      await requireOwnProject(em, userId, input.projectId, undefined, true);
      const links = await this.checkLinks(em, userId, input);
      const columns = await boardColumns(em, input.projectId);
      const first = columns[0]!;
      const order = await em.count(ProjectTask, { columnId: first.id });
      return em.create(ProjectTask, {
        userId,
        projectId: input.projectId,
        columnId: first.id,
        order,
        status: statusOfColumn(0, columns.length),
        title: input.title.trim(),
        description: input.description ?? null,
        expectedWorkAmount: input.expectedWorkAmount ?? null,
        dueDate: input.dueDate ?? null,
        deadlineId: links.deadlineId ?? null,
        categoryIds: links.categoryIds ?? [],
        tagIds: links.tagIds ?? [],
      });
    });
  }

  async update(userId: string, projectId: string, taskId: string, changes: ProjectTaskChanges, expectedVersion?: number | null): Promise<ProjectTask> {
    const target = { entity: ProjectTask, where: { id: taskId, projectId, userId }, resource: 'Project task' };
    return withExpectedVersion(this.em, target, expectedVersion, (em) => new ProjectTaskService(em).applyUpdate(userId, projectId, taskId, changes));
  }

  private async applyUpdate(userId: string, projectId: string, taskId: string, changes: ProjectTaskChanges): Promise<ProjectTask> {
    await requireOwnProject(this.em, userId, projectId);
    const task = await this.get(userId, projectId, taskId);
    const links = await this.checkLinks(this.em, userId, changes);
    if (changes.title !== undefined) task.title = changes.title.trim();
    if (changes.description !== undefined) task.description = changes.description;
    if (changes.expectedWorkAmount !== undefined) task.expectedWorkAmount = changes.expectedWorkAmount;
    if (changes.dueDate !== undefined) task.dueDate = changes.dueDate;
    if (changes.deadlineId !== undefined) task.deadlineId = changes.deadlineId;
    if (changes.categoryIds !== undefined) task.categoryIds = links.categoryIds ?? [];
    if (changes.tagIds !== undefined) task.tagIds = links.tagIds ?? [];
    await this.em.flush();
    return task;
  }

  /** The tasks below it in its column move up one place. */
  /** With `expectedVersion`, refused (VERSION_CONFLICT) when the card changed since it was read; nothing is deleted. */
  async delete(userId: string, projectId: string, taskId: string, expectedVersion?: number | null): Promise<Deleted> {
    const target = { entity: ProjectTask, where: { id: taskId, projectId, userId }, resource: 'Project task' };
    return withExpectedVersion(this.em, target, expectedVersion, (em) => new ProjectTaskService(em).applyDelete(userId, projectId, taskId));
  }

  private async applyDelete(userId: string, projectId: string, taskId: string): Promise<Deleted> {
    await this.em.transactional(async (em) => {
      await requireOwnProject(em, userId, projectId, undefined, true);
      const task = await em.findOne(ProjectTask, { id: taskId, projectId, userId });
      if (!task) throw new NotFoundError('Project task');
      await moveToTrash(em, userId, PROJECT_TASK_TRASH, taskId, task.title);
      const below = await em.find(ProjectTask, { columnId: task.columnId, order: { $gt: task.order } });
      below.forEach((t) => (t.order -= 1));
      em.remove(task);
    });
    return deleted(taskId, 'Project task');
  }

  /**
   * Places the task at `order` in `columnId` (past the end: last); the orders of the column it left and
   * of the one it joined are renumbered 0..n-1, and its status follows the new column.
   */
  async move(userId: string, projectId: string, taskId: string, columnId: string, order: number): Promise<ProjectTask> {
    return this.em.transactional(async (em) => {
      await requireOwnProject(em, userId, projectId, undefined, true);
      const task = await em.findOne(ProjectTask, { id: taskId, projectId, userId });
      if (!task) throw new NotFoundError('Project task');
      const columns = await boardColumns(em, projectId);
      const target = columns.find((c) => c.id === columnId);
      if (!target) throw new NotFoundError('Board column', { field: 'columnId' });
      const source = task.columnId;
      const inColumns = await em.find(ProjectTask, { columnId: { $in: [source, columnId] } }, { orderBy: { order: 'asc', id: 'asc' } });
      const from = inColumns.filter((t) => t.columnId === source && t !== task);
      const to = source === columnId ? from : inColumns.filter((t) => t.columnId === columnId);
      to.splice(Math.min(order, to.length), 0, task);
      task.columnId = columnId;
      task.status = statusOfColumn(target.order, columns.length);
      from.forEach((t, i) => (t.order = i));
      to.forEach((t, i) => (t.order = i));
      return task;
    });
  }

  private async checkLinks(em: EntityManager, userId: string, input: Links): Promise<Links> {
    if (input.deadlineId) await requireOwnDeadline(em, userId, input.deadlineId, 'deadlineId');
    return {
      deadlineId: input.deadlineId,
      categoryIds: input.categoryIds ? await requireOwnCategories(em, userId, input.categoryIds) : input.categoryIds,
      tagIds: input.tagIds ? await requireOwnTags(em, userId, input.tagIds) : input.tagIds,
    };
  }
}

