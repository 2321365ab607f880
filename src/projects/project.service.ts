import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError, RuleViolationError, ValidationError } from '../core/errors.js';
import type { Page } from '../core/pagination.js';
import { findPage } from '../core/database/find-page.js';
import { BoardColumn } from './board-column.entity.js';
import { DEFAULT_COLUMNS } from './board-status.js';
import { Project } from './project.entity.js';
import { ProjectTask } from './project-task.entity.js';
import { refreshStatuses } from './projects.queries.js';
import type { BoardColumnInput, CreateProjectArgs, ListProjectsArgs, UpdateProjectArgs } from './projects.types.js';

/**
 * The caller's project, or NOT_FOUND (naming `field` when the id came in a body). With `lock`, its row
 * is locked for the transaction: every change to its board and the orders of its tasks takes this lock
 * first, so concurrent moves run one after another and orders stay 0..n-1.
 */
export async function requireOwnProject(em: EntityManager, userId: string, projectId: string, field?: string, lock = false): Promise<Project> {
  const project = await em.findOne(Project, { id: projectId, userId }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!project) throw new NotFoundError('Project', field ? { field } : undefined);
  return project;
}

/** A board's columns, first to last. */
export function boardColumns(em: EntityManager, projectId: string): Promise<BoardColumn[]> {
  return em.find(BoardColumn, { projectId }, { orderBy: { order: 'asc', id: 'asc' } });
}

/** Projects and their boards. */
export class ProjectService {
  constructor(private readonly em: EntityManager) {}

  async list(userId: string, args: ListProjectsArgs): Promise<Page<Project>> {
    const where: FilterQuery<Project> & Record<string, unknown> = { userId };
    if (args.type) where.type = args.type;
    if (args.status) where.status = args.status;
    return findPage(this.em, Project, where, { createdAt: 'asc', id: 'asc' }, args);
  }

  get(userId: string, projectId: string): Promise<Project> {
    return requireOwnProject(this.em, userId, projectId);
  }

  /** The project comes with its board: To do, In progress, Done. */
  async create(userId: string, input: CreateProjectArgs): Promise<Project> {
    const project = this.em.create(Project, {
      userId,
      title: input.title.trim(),
      description: input.description ?? null,
      type: input.type?.trim() ?? 'personal',
      status: input.status ?? 'active',
    });
    DEFAULT_COLUMNS.forEach((name, order) => this.em.create(BoardColumn, { projectId: project.id, name, order }));
    await this.em.flush();
    return project;
  }

  async update(userId: string, projectId: string, changes: Omit<UpdateProjectArgs, 'projectId'>): Promise<Project> {
    const project = await this.get(userId, projectId);
    if (changes.title !== undefined) project.title = changes.title.trim();
    if (changes.description !== undefined) project.description = changes.description;
    if (changes.type !== undefined) project.type = changes.type.trim();
    if (changes.status !== undefined) project.status = changes.status;
    await this.em.flush();
    return project;
  }

  /** Its board and tasks go with it; its deadlines stay, without a project. */
  async delete(userId: string, projectId: string): Promise<Deleted> {
    const project = await this.get(userId, projectId);
    await this.em.remove(project).flush();
    return deleted(projectId, 'Project');
  }

  /**
   * The board becomes `columns`: those with an id are renamed and moved, those without are added, and
   * those left out are removed when they hold no task (else 400, nothing changed). Positions follow
   * `order` (ties keep the list's order) and are renumbered 0..n-1; every task's status is set again
   * from its column's new place (first todo, last done, others doing).
   */
  async updateBoard(userId: string, projectId: string, columns: BoardColumnInput[]): Promise<Project> {
    return this.em.transactional(async (em) => {
      const project = await requireOwnProject(em, userId, projectId, undefined, true);
      const current = await boardColumns(em, projectId);
      const byId = new Map(current.map((c) => [c.id, c]));
      const seen = new Set<string>();
      columns.forEach((input, i) => {
        if (!input.id) return;
        if (seen.has(input.id)) {
          throw new ValidationError('a column appears twice', [{ path: ['columns', i, 'id'], message: 'a column appears twice' }]);
        }
        seen.add(input.id);
        if (!byId.has(input.id)) throw new NotFoundError('Board column', { field: 'columns' });
      });
      const removed = current.filter((c) => !seen.has(c.id));
      if (removed.length) {
        const holding = await em.count(ProjectTask, { columnId: { $in: removed.map((c) => c.id) } });
        if (holding) {
          throw new RuleViolationError('column_not_empty', 'a column that holds tasks cannot be removed; move its tasks first', ['columns']);
        }
      }
      const placed = columns.map((input, i) => ({ input, key: input.order ?? i, i })).sort((a, b) => a.key - b.key || a.i - b.i);
      const next = placed.map(({ input }, order) => {
        const column = input.id ? byId.get(input.id)! : em.create(BoardColumn, { projectId, name: input.name, order });
        column.name = input.name.trim();
        column.order = order;
        return column;
      });
      removed.forEach((c) => em.remove(c));
      await em.flush();
      await refreshStatuses(em, projectId, next);
      return project;
    });
  }
}
