import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError } from '../core/errors.js';
import type { Page } from '../core/pagination.js';
import { findPage } from '../core/database/find-page.js';
import { Deadline } from './deadline.entity.js';
import { requireOwnProject } from './project.service.js';
import type { CreateDeadlineArgs, ListDeadlinesArgs, UpdateDeadlineArgs } from './projects.types.js';

type DeadlineChanges = Omit<UpdateDeadlineArgs, 'deadlineId'>;

/** The caller's deadline, or NOT_FOUND (naming `field` when the id came in a body). */
export async function requireOwnDeadline(em: EntityManager, userId: string, deadlineId: string, field?: string): Promise<Deadline> {
  const deadline = await em.findOne(Deadline, { id: deadlineId, userId });
  if (!deadline) throw new NotFoundError('Deadline', field ? { field } : undefined);
  return deadline;
}

/** A user's deadlines, soonest first. */
export class DeadlineService {
  constructor(private readonly em: EntityManager) {}

  async list(userId: string, args: ListDeadlinesArgs): Promise<Page<Deadline>> {
    const where: FilterQuery<Deadline> & Record<string, unknown> = { userId };
    if (args.projectId) {
      await requireOwnProject(this.em, userId, args.projectId, 'projectId');
      where.projectId = args.projectId;
    }
    if (args.priority) where.priority = args.priority;
    const and: FilterQuery<Deadline>[] = [];
    if (args.status) and.push({ status: args.status });
    // upcoming: due from now on and not done; upcoming=false: the rest.
    const upcoming: FilterQuery<Deadline> = { dueDate: { $gte: new Date() }, status: { $ne: 'done' } };
    if (args.upcoming === true) and.push(upcoming);
    if (args.upcoming === false) and.push({ $not: upcoming } as FilterQuery<Deadline>);
    if (and.length) where.$and = and;
    return findPage(this.em, Deadline, where, { dueDate: 'asc', id: 'asc' }, args);
  }

  get(userId: string, deadlineId: string): Promise<Deadline> {
    return requireOwnDeadline(this.em, userId, deadlineId);
  }

  async create(userId: string, input: CreateDeadlineArgs): Promise<Deadline> {
    if (input.projectId) await requireOwnProject(this.em, userId, input.projectId, 'projectId');
    const deadline = this.em.create(Deadline, {
      userId,
      title: input.title.trim(),
      description: input.description ?? null,
      dueDate: input.dueDate,
      projectId: input.projectId ?? null,
      priority: input.priority ?? 'medium',
      status: input.status ?? 'pending',
    });
    await this.em.flush();
    return deadline;
  }

  async update(userId: string, deadlineId: string, changes: DeadlineChanges): Promise<Deadline> {
    const deadline = await this.get(userId, deadlineId);
    if (changes.projectId) await requireOwnProject(this.em, userId, changes.projectId, 'projectId');
    if (changes.title !== undefined) deadline.title = changes.title.trim();
    if (changes.description !== undefined) deadline.description = changes.description;
    if (changes.dueDate !== undefined) deadline.dueDate = changes.dueDate;
    if (changes.projectId !== undefined) deadline.projectId = changes.projectId;
    if (changes.priority !== undefined) deadline.priority = changes.priority;
    if (changes.status !== undefined) deadline.status = changes.status;
    await this.em.flush();
    return deadline;
  }

  /** Its project tasks stay, without a deadline (the key is ON DELETE SET NULL). */
  async delete(userId: string, deadlineId: string): Promise<Deleted> {
    const deadline = await this.get(userId, deadlineId);
    await this.em.remove(deadline).flush();
    return deleted(deadlineId, 'Deadline');
  }
}
