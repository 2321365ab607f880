import type { EntityManager } from '@mikro-orm/postgresql';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { findPage } from '../core/database/find-page.js';
import { removeTagFromTasks } from './projects.queries.js';
import { Tag } from './tag.entity.js';

/** A user's tags for project tasks. */
export class TagService {
  constructor(private readonly em: EntityManager) {}

  async list(userId: string, args: PageArgs): Promise<Page<Tag>> {
    return findPage(this.em, Tag, { userId }, { createdAt: 'asc', id: 'asc' }, args);
  }

  async get(userId: string, tagId: string): Promise<Tag> {
    const tag = await this.em.findOne(Tag, { id: tagId, userId });
    if (!tag) throw new NotFoundError('Tag');
    return tag;
  }

  async create(userId: string, input: { name: string; color?: string | null }): Promise<Tag> {
    const tag = this.em.create(Tag, { userId, name: input.name.trim(), color: input.color ?? null });
    await this.em.flush();
    return tag;
  }

  async update(userId: string, tagId: string, changes: { name?: string; color?: string | null }): Promise<Tag> {
    const tag = await this.get(userId, tagId);
    if (changes.name !== undefined) tag.name = changes.name.trim();
    if (changes.color !== undefined) tag.color = changes.color;
    await this.em.flush();
    return tag;
  }

  /** The tag leaves every project task that carried it, in the same transaction. */
  async delete(userId: string, tagId: string): Promise<Deleted> {
    await this.em.transactional(async (em) => {
      const tag = await em.findOne(Tag, { id: tagId, userId });
      if (!tag) throw new NotFoundError('Tag');
      await removeTagFromTasks(em, userId, tagId);
      em.remove(tag);
    });
    return deleted(tagId, 'Tag');
  }
}

/** Each id must be one of the user's tags (else NOT_FOUND naming `field`); returns them without duplicates. */
export async function requireOwnTags(em: EntityManager, userId: string, ids: string[], field = 'tagIds'): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const found = await em.count(Tag, { id: { $in: unique }, userId });
  if (found !== unique.length) throw new NotFoundError('Tag', { field });
  return unique;
}
