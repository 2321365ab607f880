import { deleteReported } from '../core/live/deletion-changes.queries.js';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, RuleViolationError, ValidationError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { Day } from './day.entity.js';
import { DayPerimeterTask } from './day-perimeter-task.entity.js';
import { PerimeterTask } from './perimeter-task.entity.js';
import { findPage } from '../core/database/find-page.js';

/** Spec rule 1 and operations.md: 3 to 5 tasks in normal mode, 2 or 3 in minimum mode. */
export function perimeterSize(minimumMode: boolean): { min: number; max: number } {
  return minimumMode ? { min: 2, max: 3 } : { min: 3, max: 5 };
}

export class PerimeterService {
  constructor(private readonly em: EntityManager) {}

  async list(userId: string, args: PageArgs): Promise<Page<PerimeterTask>> {
    return findPage(this.em, PerimeterTask, { userId }, { createdAt: 'asc', id: 'asc' }, args);
  }

  async create(userId: string, input: { title: string; personId?: string }): Promise<PerimeterTask> {
    if (input.personId) await this.requirePerson(userId, input.personId);
    const task = this.em.create(PerimeterTask, { userId, title: input.title, personId: input.personId ?? null });
    await this.em.flush();
    return task;
  }

  async update(userId: string, taskId: string, changes: { title?: string; personId?: string | null }): Promise<PerimeterTask> {
    const task = await this.find(userId, taskId);
    if (changes.title !== undefined) task.title = changes.title;
    if (changes.personId) await this.requirePerson(userId, changes.personId);
    if (changes.personId !== undefined) task.personId = changes.personId;
    await this.em.flush();
    return task;
  }

  /**
   * `personId` must be one of the caller's people: another user's answers 404 like a missing one.
   * The people live in the social domain, above this hub: named by entity name, not imported.
   */
  private async requirePerson(userId: string, personId: string): Promise<void> {
    if (!(await this.em.count('Person', { id: personId, userId }))) throw new NotFoundError('Person', { field: 'personId' });
  }

  async delete(userId: string, taskId: string): Promise<void> {
    const task = await this.find(userId, taskId);
    await this.em.remove(task).flush();
  }

  /** Replaces the day's perimeter with `taskIds`, in that order. */
  async setForDay(userId: string, dayId: string, taskIds: string[]): Promise<PerimeterTask[]> {
    return this.em.transactional(async (em) => {
      const day = await em.findOne(Day, { id: dayId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!day) throw new NotFoundError('Day');
      if (new Set(taskIds).size !== taskIds.length) {
        throw new ValidationError('taskIds must not repeat a task', [{ path: ['taskIds'], message: 'taskIds contains duplicates' }]);
      }
      const { min, max } = perimeterSize(day.minimumMode);
      if (taskIds.length < min || taskIds.length > max) {
        const mode = day.minimumMode ? 'minimum mode' : 'normal mode';
        throw new RuleViolationError('perimeter_size', `A day's perimeter holds ${min} to ${max} tasks in ${mode}; got ${taskIds.length}`, ['taskIds']);
      }
      const tasks = await em.find(PerimeterTask, { id: { $in: taskIds }, userId });
      if (tasks.length !== taskIds.length) throw new NotFoundError('PerimeterTask', { field: 'taskIds' });
      await deleteReported(em, userId, DayPerimeterTask, { dayId });
      taskIds.forEach((perimeterTaskId, position) => em.create(DayPerimeterTask, { dayId, perimeterTaskId, position }));
      const byId = new Map(tasks.map((t) => [t.id, t]));
      return taskIds.map((id) => byId.get(id)!);
    });
  }

  /** Empties the day's perimeter (as before one was set): the day's tasks stay in the pool. */
  async clearForDay(userId: string, dayId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      const day = await em.findOne(Day, { id: dayId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!day) throw new NotFoundError('Day');
      await deleteReported(em, userId, DayPerimeterTask, { dayId });
    });
  }

  private async find(userId: string, taskId: string): Promise<PerimeterTask> {
    const task = await this.em.findOne(PerimeterTask, { id: taskId, userId });
    if (!task) throw new NotFoundError('PerimeterTask');
    return task;
  }
}
