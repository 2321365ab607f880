import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError, RuleViolationError, ValidationError } from '../core/errors.js';
import { recordEvent } from '../core/events/record-event.js';
import { recordFact } from '../core/events/fact-dispatcher.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { Day } from '../planning/day.entity.js';
import { TaskApplyTo } from './task-apply-to.js';
import { TaskCategory } from './task-category.entity.js';
import { TEMPLATE_FIELDS, TaskSeries } from './task-series.js';
import { TaskStatus } from './task-status.js';
import { Task } from './task.entity.js';
import { findPage, type FindPageOptions } from '../core/database/find-page.js';
import { withExpectedVersion } from '../core/database/expected-version.js';
import { undoneAfter, type TemplateChanges } from './tasks.queries.js';
import { moveToTrash } from '../trash/trash-kinds.js';
import { TASK_TRASH, type TaskTrashExtra } from './task.trash.js';

export interface TaskFilter extends PageArgs {
  status?: TaskStatus | null;
  categoryId?: string | null;
  dayId?: string | null;
  seriesId?: string | null;
}

export interface NewTask {
  title: string;
  description?: string | null;
  timebox: number;
  categoryId?: string | null;
  dayId?: string | null;
  /** An RRULE: the task becomes the first of a series starting on its day's date. */
  recurrence?: string | null;
  startTime?: string | null;
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
  startTime?: string | null;
  /** A new rule from this task on (null: the series ends before it); see TaskService.update. */
  recurrence?: string | null;
}

const isBlank = (value: string | null | undefined) => !value || value.trim() === '';

/**
 * Tasks of one user. Every read and write is scoped by owner: another user's task, category or day
 * answers NOT_FOUND exactly like a missing one. Events go to the outbox in the same flush as the change.
 */
export class TaskService {
  constructor(private readonly em: EntityManager) {}

  /** `options.countFirst`: for a page likely past the end (a live page whose last answer was empty); same answer. */
  async list(userId: string, filter: TaskFilter, options: FindPageOptions = {}): Promise<Page<Task>> {
    const where: FilterQuery<Task> = { userId };
    if (filter.status) where.status = filter.status;
    if (filter.categoryId) where.categoryId = filter.categoryId;
    if (filter.dayId) where.dayId = filter.dayId;
    if (filter.seriesId) where.seriesId = filter.seriesId;
    return findPage(this.em, Task, where, { createdAt: 'asc', id: 'asc' }, filter, options);
  }

  async get(userId: string, taskId: string): Promise<Task> {
    const task = await this.em.findOne(Task, { id: taskId, userId });
    if (!task) throw new NotFoundError('Task');
    return task;
  }

  async create(userId: string, input: NewTask): Promise<Task> {
    if (input.recurrence != null) return this.createSeries(userId, input, input.recurrence);
    if (input.categoryId) await this.requireCategory(userId, input.categoryId);
    if (input.dayId) await this.requireDay(userId, input.dayId);
    const task = this.em.create(Task, {
      userId,
      title: input.title,
      description: input.description ?? null,
      timebox: input.timebox,
      categoryId: input.categoryId ?? null,
      dayId: input.dayId ?? null,
      startTime: input.startTime ?? null,
    });
    recordCreated(this.em, task);
    await this.em.flush();
    return task;
  }

  /**
   * Changes a task. On a task of a series, `applyTo` says which occurrences the change reaches (as
   * calendar apps ask): `this` only this one, `following` this one and the later ones (the series is
   * split here; on its first task, the series is replaced). A change of `recurrence` reaches the
   * following occurrences only, so it needs `following` on a task of a series; on a task outside any
   * series, a rule makes it the first of one (`applyTo` is ignored there). Status and nextStep are this
   * task's alone; completing or deferring an occurrence makes sure the next one exists.
   */
  async update(userId: string, taskId: string, changes: TaskChanges, applyTo: TaskApplyTo = TaskApplyTo.this, expectedVersion?: number | null): Promise<Task> {
    const target = { entity: Task, where: { id: taskId, userId }, resource: 'Task' };
    return withExpectedVersion(this.em, target, expectedVersion, (em) => new TaskService(em).applyUpdate(userId, taskId, changes, applyTo));
  }

  private async applyUpdate(userId: string, taskId: string, changes: TaskChanges, applyTo: TaskApplyTo): Promise<Task> {
    const plain = await this.get(userId, taskId);
    if (!plain.seriesId && changes.recurrence == null) return this.updateSingle(userId, plain, changes);
    return this.em.transactional(async (em) => {
      const service = new TaskService(em);
      const { first, task } = await service.lockSeries(userId, taskId);
      await service.checkChanges(userId, task, changes);
      const series = new TaskSeries(em, userId);
      const completes = becomesDoneOrDeferred(task, changes);
      if (!first) {
        if (changes.recurrence == null) {
          service.apply(task, changes);
          await em.flush();
          return task;
        }
        // A task outside any series becomes the first of one.
        const date = await service.dateOfDay(userId, changes.dayId !== undefined ? changes.dayId : task.dayId);
        const rule = series.ruleFor(changes.recurrence!, date);
        await series.requireRoom(date);
        service.apply(task, changes);
        series.start(task, rule, date);
        await em.flush();
        await series.makeAhead(task);
        return task;
      }
      const template = templateChanges(task, changes);
      const reachesSeries = changes.recurrence !== undefined || Object.keys(template).length > 0 || (changes.dayId !== undefined && changes.dayId !== task.dayId);
      if (applyTo === TaskApplyTo.following && reachesSeries) {
        if (changes.dayId === null) throw new RuleViolationError('recurring_task_day', 'A recurring series needs a day: detach this occurrence alone (applyTo this)', ['dayId']);
        const start = changes.dayId !== undefined && changes.dayId !== task.dayId ? await service.dateOfDay(userId, changes.dayId) : undefined;
        await series.split(first, task, { rule: changes.recurrence, start, template });
        service.apply(task, changes);
        await em.flush();
        if (task.recurrence) await series.makeAhead(task);
      } else {
        if (changes.recurrence !== undefined) {
          throw new ValidationError('A new recurrence reaches this occurrence and the following ones: send applyTo following', [
            { path: ['recurrence'], message: 'recurrence changes this and the following occurrences (applyTo following)' },
          ]);
        }
        // The first task changed alone in a field its occurrences copy: the series goes on without it.
        if (task.id === first.id && Object.keys(template).length > 0) await series.passOn(first);
        service.apply(task, changes);
      }
      const seriesOfTask = task.seriesId === first.id ? first : task.seriesId === task.id ? task : null;
      if (seriesOfTask && completes) await series.ensureNext(task, seriesOfTask);
      await em.flush();
      return task;
    });
  }

  /**
   * Deletes a task. On a task of a series: `this` deletes this occurrence alone, and its date becomes
   * an exception of the series (never made again; deleting the first task passes the series on to the
   * next occurrence); `following` ends the series the day before and deletes the occurrences from it on
   * that are not done (done ones stay, as single tasks). `applyTo` is ignored for a task outside a series.
   */
  /** With `expectedVersion`, refused (VERSION_CONFLICT) when the task changed since it was read; nothing is deleted. */
  async delete(userId: string, taskId: string, applyTo: TaskApplyTo = TaskApplyTo.this, expectedVersion?: number | null): Promise<Deleted> {
    const target = { entity: Task, where: { id: taskId, userId }, resource: 'Task' };
    return withExpectedVersion(this.em, target, expectedVersion, (em) => new TaskService(em).applyDelete(userId, taskId, applyTo));
  }

  private async applyDelete(userId: string, taskId: string, applyTo: TaskApplyTo): Promise<Deleted> {
    const plain = await this.get(userId, taskId);
    if (!plain.seriesId) {
      await this.em.transactional(async (em) => {
        await moveToTrash(em, userId, TASK_TRASH, taskId, plain.title);
        em.remove(plain);
      });
      return deleted(taskId, 'Task');
    }
    await this.em.transactional(async (em) => {
      const service = new TaskService(em);
      const { first, task } = await service.lockSeries(userId, taskId);
      if (first && applyTo === TaskApplyTo.following) {
        // One trash entry holds the occurrence and the later ones the series' end deletes (read before they go).
        const date = task.occurrenceDate!;
        const extra = task.id === first.id ? undefined : ({ seriesId: first.id, endedFrom: date } satisfies TaskTrashExtra);
        await moveToTrash(em, userId, TASK_TRASH, taskId, task.title, extra, undoneAfter(first.id, date));
        await new TaskSeries(em, userId).endAt(first, task);
      } else {
        if (first) {
          const series = new TaskSeries(em, userId);
          if (task.id === first.id) await series.passOn(first);
          else series.except(first, task.occurrenceDate!);
        }
        // The snapshot reads the table: the series' changes to this task (a first task leaving it) go first.
        await em.flush();
        await moveToTrash(em, userId, TASK_TRASH, taskId, task.title);
      }
      em.remove(task);
    });
    return deleted(taskId, 'Task');
  }

  private async createSeries(userId: string, input: NewTask, text: string): Promise<Task> {
    if (!input.dayId) throw new RuleViolationError('recurring_task_day', 'A recurring task needs a day: its date starts the series', ['dayId']);
    if (input.categoryId) await this.requireCategory(userId, input.categoryId);
    const date = await this.dateOfDay(userId, input.dayId);
    return this.em.transactional(async (em) => {
      const series = new TaskSeries(em, userId);
      const rule = series.ruleFor(text, date);
      await series.requireRoom(date);
      const task = em.create(Task, {
        userId,
        title: input.title,
        description: input.description ?? null,
        timebox: input.timebox,
        categoryId: input.categoryId ?? null,
        dayId: input.dayId,
        startTime: input.startTime ?? null,
      });
      series.start(task, rule, date);
      recordCreated(em, task);
      await em.flush();
      await series.makeAhead(task);
      return task;
    });
  }

  private async updateSingle(userId: string, task: Task, changes: TaskChanges): Promise<Task> {
    await this.checkChanges(userId, task, changes);
    this.apply(task, changes);
    await this.em.flush();
    return task;
  }

  /**
   * The task, and the first task of its series (null outside one), both locked for the transaction:
   * the first task before the occurrence, so every change to one series waits for the one before.
   */
  private async lockSeries(userId: string, taskId: string): Promise<{ first: Task | null; task: Task }> {
    const seen = await this.em.findOne(Task, { id: taskId, userId }, { fields: ['seriesId'] });
    if (!seen) throw new NotFoundError('Task');
    const first = seen.seriesId ? await this.em.findOne(Task, { id: seen.seriesId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }) : null;
    const task = first?.id === taskId ? first : await this.em.findOne(Task, { id: taskId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!task) throw new NotFoundError('Task');
    // A series whose first task is gone (or is not one any more): the task is treated as a single one.
    return { first: first?.recurrence && task.seriesId === first.id ? first : null, task };
  }

  /** Every rule is checked before anything is touched: a refused request changes nothing. */
  private async checkChanges(userId: string, task: Task, changes: TaskChanges): Promise<void> {
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
  }

  /** Writes the changes to the task, with the status events (task_completed, task_deferred, task_reopened). */
  private apply(task: Task, changes: TaskChanges): void {
    const userId = task.userId;
    if (changes.title !== undefined) task.title = changes.title;
    if (changes.description !== undefined) task.description = changes.description;
    if (changes.timebox !== undefined) task.timebox = changes.timebox;
    if (changes.nextStep !== undefined) task.nextStep = changes.nextStep;
    if (changes.categoryId !== undefined) task.categoryId = changes.categoryId;
    if (changes.dayId !== undefined) task.dayId = changes.dayId;
    if (changes.startTime !== undefined) task.startTime = changes.startTime;

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
      if (changes.status === TaskStatus.deferred) {
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
  }

  /** The date of the user's day (404 naming `dayId` for another user's or a missing one; a series needs a day). */
  private async dateOfDay(userId: string, dayId: string | null | undefined): Promise<string> {
    if (!dayId) throw new RuleViolationError('recurring_task_day', 'A recurring task needs a day: its date starts the series', ['dayId']);
    const day = await this.em.findOne(Day, { id: dayId, userId }, { fields: ['date'] });
    if (!day) throw new NotFoundError('Day', { field: 'dayId' });
    return day.date;
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

function recordCreated(em: EntityManager, task: Task): void {
  recordEvent(em, task.userId, 'task_created', {
    taskId: task.id,
    title: task.title,
    createdAt: task.createdAt.toISOString(),
  });
}

/** The fields occurrences copy that the changes really change. */
function templateChanges(task: Task, changes: TaskChanges): TemplateChanges {
  const template: Record<string, unknown> = {};
  for (const field of TEMPLATE_FIELDS) {
    const value = changes[field];
    if (value !== undefined && value !== (task[field] ?? null)) template[field] = value;
  }
  return template as TemplateChanges;
}

/** Whether the changes complete the task (not done yet) or defer it. */
function becomesDoneOrDeferred(task: Task, changes: TaskChanges): boolean {
  return changes.status === TaskStatus.deferred || (changes.status === TaskStatus.done && task.status !== TaskStatus.done);
}
