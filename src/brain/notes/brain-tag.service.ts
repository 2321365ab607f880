import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { deleted, type Deleted } from '../../core/deleted.js';
import { NotFoundError, RuleViolationError } from '../../core/errors.js';
import { findPage } from '../../core/database/find-page.js';
import type { Page, PageArgs } from '../../core/pagination.js';
import { BrainNote } from './brain-note.entity.js';
import { BrainTag } from './brain-tag.entity.js';
import { removeTagFromNotes } from './brain-notes.queries.js';

const nameKey = (name: string) => name.trim().toLowerCase();

function taken(): RuleViolationError {
  return new RuleViolationError('brain_tag_exists', 'you already have a Brain tag with this name', ['name']);
}

/** The Brain's own tags (apart from the project tags of `/tags`). */
export class BrainTagService {
  constructor(private readonly em: EntityManager) {}

  list(userId: string, args: PageArgs): Promise<Page<BrainTag>> {
    return findPage(this.em, BrainTag, { userId }, { nameKey: 'asc', id: 'asc' }, args);
  }

  async get(userId: string, tagId: string): Promise<BrainTag> {
    const tag = await this.em.findOne(BrainTag, { id: tagId, userId });
    if (!tag) throw new NotFoundError('Tag');
    return tag;
  }

  /** The user's tags among `ids`, by name (a note's tags shown with their names). */
  async byIds(userId: string, ids: readonly string[]): Promise<BrainTag[]> {
    if (!ids.length) return [];
    return this.em.find(BrainTag, { id: { $in: [...ids] }, userId }, { orderBy: { nameKey: 'asc', id: 'asc' } });
  }

  /** A name already used (ignoring case) is refused: 400 `brain_tag_exists`. */
  async create(userId: string, input: { name: string; color?: string | null }): Promise<BrainTag> {
    const name = input.name.trim();
    if (await this.em.count(BrainTag, { userId, nameKey: nameKey(name) })) throw taken();
    const tag = this.em.create(BrainTag, { userId, name, nameKey: nameKey(name), color: input.color ?? null });
    await this.flushUnique();
    return tag;
  }

  async update(userId: string, tagId: string, changes: { name?: string; color?: string | null }): Promise<BrainTag> {
    const tag = await this.get(userId, tagId);
    if (changes.name !== undefined) {
      const name = changes.name.trim();
      if (nameKey(name) !== tag.nameKey && (await this.em.count(BrainTag, { userId, nameKey: nameKey(name) }))) throw taken();
      tag.name = name;
      tag.nameKey = nameKey(name);
    }
    if (changes.color !== undefined) tag.color = changes.color;
    await this.flushUnique();
    return tag;
  }

  /** The tag leaves every note that carried it, in the same transaction. */
  async delete(userId: string, tagId: string): Promise<Deleted> {
    await this.em.transactional(async (em) => {
      const tag = await em.findOne(BrainTag, { id: tagId, userId });
      if (!tag) throw new NotFoundError('Tag');
      await removeTagFromNotes(em, em.getMetadata(BrainNote).tableName, userId, tagId);
      em.remove(tag);
    });
    return deleted(tagId, 'Tag');
  }

  /** Two requests creating the same name at once: the unique key decides, with the same answer. */
  private async flushUnique(): Promise<void> {
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw taken();
      throw error;
    }
  }
}

/** Each id must be one of the user's Brain tags (else NOT_FOUND naming `field`); returns them without duplicates. */
export async function requireOwnBrainTags(em: EntityManager, userId: string, ids: string[], field = 'tagIds'): Promise<string[]> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (!unique.length) return [];
  const found = await em.count(BrainTag, { id: { $in: unique }, userId });
  if (found !== unique.length) throw new NotFoundError('Tag', { field });
  return unique;
}
