import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError, RuleViolationError } from '../core/errors.js';
import { recordEvent } from '../core/events/record-event.js';
import { recordFact } from '../core/events/fact-dispatcher.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { Day } from '../planning/day.entity.js';
import { TaskCategory } from './task-category.entity.js';
import { TaskStatus } from './task-status.js';
import { Task } from './task.entity.js';
import { findPage } from '../core/database/find-page.js';

export interface TaskFilter extends PageArgs {
  status?: TaskStatus | null;
  categoryId?: string | null;
  dayId?: string | null;
}

export interface NewTask {
  title: string;
  description?: string | null;
  timebox: number;
  categoryId?: string | null;
  dayId?: string | null;
}

/** Absent (undefined) leaves a field as it is; null clears the clearable ones. */
export interface TaskChanges {
  title?: string;
  description?: string | null;
  status?: TaskStatus;
  timebox?: number;
  nextStep?: string | null;
  categoryId?: string | null;
  dayId?: string | null;
}

const isBlank = (value: string | null | undefined) => !value || value.trim() === '';

/**
 * Tasks of one user. Every read and write is scoped by owner: another user's task, category or day
 * answers NOT_FOUND exactly like a missing one. Events go to the outbox in the same flush as the change.
 */
export class TaskService {
  constructor(private readonly em: EntityManager) {}

  async list(userId: string, filter: TaskFilter): Promise<Page<Task>> {
    const where: FilterQuery<Task> = { userId };
    if (filter.status) where.status = filter.status;
    if (filter.categoryId) where.categoryId = filter.categoryId;
    if (filter.dayId) where.dayId = filter.dayId;
    return findPage(this.em, Task, where, { createdAt: 'asc', id: 'asc' }, filter);
  }

  async get(userId: string, taskId: string): Promise<Task> {
    const task = await this.em.findOne(Task, { id: taskId, userId });
    if (!task) throw new NotFoundError('Task');
    return task;
  }

  async create(userId: string, input: NewTask): Promise<Task> {
    if (input.categoryId) await this.requireCategory(userId, input.categoryId);
    if (input.dayId) await this.requireDay(userId, input.dayId);
    const task = this.em.create(Task, {
      userId,
      title: input.title,
      description: input.description ?? null,
      timebox: input.timebox,
      categoryId: input.categoryId ?? null,
      dayId: input.dayId ?? null,
    });
    recordEvent(this.em, userId, 'task_created', {
      taskId: task.id,
      title: task.title,
      createdAt: task.createdAt.toISOString(),
    });
    await this.em.flush();
    return task;
  }

  async update(userId: string, taskId: string, changes: TaskChanges): Promise<Task> {
    const task = await this.get(userId, taskId);

    // Every rule is checked before anything is touched: a refused request changes nothing.
    const deferring = changes.status === TaskStatus.deferred;
    if (deferring && isBlank(changes.nextStep)) {
      throw new RuleViolationError('task_deferral', 'A task cannot be deferred without a nextStep', ['nextStep']);
    }
    const finalStatus = changes.status ?? task.status;
    if (finalStatus === TaskStatus.deferred && changes.nextStep !== undefined && isBlank(changes.nextStep)) {
      throw new RuleViolationError('task_deferral', 'A deferred task must keep a nextStep', ['nextStep']);
    }
    if (changes.categoryId) await this.requireCategory(userId, changes.categoryId);
    if (changes.dayId) await this.requireDay(userId, changes.dayId);

    if (changes.title !== undefined) task.title = changes.title;
    if (changes.description !== undefined) task.description = changes.description;
    if (changes.timebox !== undefined) task.timebox = changes.timebox;
    if (changes.nextStep !== undefined) task.nextStep = changes.nextStep;
    if (changes.categoryId !== undefined) task.categoryId = changes.categoryId;
    if (changes.dayId !== undefined) task.dayId = changes.dayId;

    const now = new Date();
    const previous = task.status;
    if (changes.status !== undefined) {
      task.status = changes.status;
      if (changes.status === TaskStatus.done && previous !== TaskStatus.done) {
        task.completedAt = now;
        recordEvent(this.em, userId, 'task_completed', {
          taskId: task.id,
          title: task.title,
          completedAt: now.toISOString(),
        }, now);
      }
      if (changes.status !== TaskStatus.done) task.completedAt = null;
      if (previous === TaskStatus.done && changes.status !== TaskStatus.done) recordFact(this.em, userId, 'task_reopened', { taskId: task.id }, now);
      if (deferring) {
        // Spec state table: "any" state updated to deferred with a nextStep → deferred + task_deferred,
        // so deferring an already deferred task again (a new next step) is a new deferral.
        task.deferredAt = now;
        recordEvent(this.em, userId, 'task_deferred', {
          taskId: task.id,
          title: task.title,
          nextStep: task.nextStep!,
          deferredAt: now.toISOString(),
        }, now);
      } else {
        task.deferredAt = null;
      }
    }
    await this.em.flush();
    return task;
  }

  async delete(userId: string, taskId: string): Promise<Deleted> {
    const task = await this.get(userId, taskId);
    await this.em.remove(task).flush();
    return deleted(taskId, 'Task');
  }

  private async requireCategory(userId: string, categoryId: string): Promise<void> {
    const count = await this.em.count(TaskCategory, { id: categoryId, userId });
    if (!count) throw new NotFoundError('Task category', { field: 'categoryId' });
  }

  private async requireDay(userId: string, dayId: string): Promise<void> {
    const count = await this.em.count(Day, { id: dayId, userId });
    if (!count) throw new NotFoundError('Day', { field: 'dayId' });
  }
}
