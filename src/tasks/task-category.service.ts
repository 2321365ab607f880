import type { EntityManager } from '@mikro-orm/postgresql';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { TaskCategory } from './task-category.entity.js';
import { findPage } from '../core/database/find-page.js';

export interface CategoryChanges {
  name?: string;
  color?: string | null;
}

/** A user's task categories; another user's category answers NOT_FOUND like a missing one. */
export class TaskCategoryService {
  constructor(private readonly em: EntityManager) {}

  async list(userId: string, args: PageArgs): Promise<Page<TaskCategory>> {
    return findPage(this.em, TaskCategory, { userId }, { createdAt: 'asc', id: 'asc' }, args);
  }

  async get(userId: string, categoryId: string): Promise<TaskCategory> {
    const category = await this.em.findOne(TaskCategory, { id: categoryId, userId });
    if (!category) throw new NotFoundError('Task category');
    return category;
  }

  async create(userId: string, input: { name: string; color?: string | null }): Promise<TaskCategory> {
    const category = this.em.create(TaskCategory, { userId, name: input.name, color: input.color ?? null });
    await this.em.flush();
    return category;
  }

  async update(userId: string, categoryId: string, changes: CategoryChanges): Promise<TaskCategory> {
    const category = await this.get(userId, categoryId);
    if (changes.name !== undefined) category.name = changes.name;
    if (changes.color !== undefined) category.color = changes.color;
    await this.em.flush();
    return category;
  }

  /** Its tasks stay, without a category (the foreign key is ON DELETE SET NULL). */
  async delete(userId: string, categoryId: string): Promise<Deleted> {
    const category = await this.get(userId, categoryId);
    await this.em.remove(category).flush();
    return deleted(categoryId, 'Task category');
  }
}
