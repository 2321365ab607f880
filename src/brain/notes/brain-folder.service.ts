import type { EntityManager } from '@mikro-orm/postgresql';
import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { deleted, type Deleted } from '../../core/deleted.js';
import { NotFoundError, RuleViolationError } from '../../core/errors.js';
import { findPage } from '../../core/database/find-page.js';
import type { Page, PageArgs } from '../../core/pagination.js';
import { BrainFolder } from './brain-folder.entity.js';
import { BrainNote } from './brain-note.entity.js';
import { ancestorIds, heightOf, lockFolders } from './brain-notes.queries.js';

/** Folders nest at most this deep (a guard against runaway trees; a file browser shows far fewer). */
export const FOLDER_DEPTH_MAX = 32;

/** Nested folders of Brain notes. */
export class BrainFolderService {
  constructor(private readonly em: EntityManager) {}

  /** Every folder, flat (each names its `parentId`), by name: the client builds the tree. */
  list(userId: string, args: PageArgs): Promise<Page<BrainFolder>> {
    return findPage(this.em, BrainFolder, { userId }, { name: 'asc', id: 'asc' }, args);
  }

  async get(userId: string, folderId: string): Promise<BrainFolder> {
    const folder = await this.em.findOne(BrainFolder, { id: folderId, userId });
    if (!folder) throw new NotFoundError('Folder');
    return folder;
  }

  async create(userId: string, input: { name: string; parentId?: string | null }): Promise<BrainFolder> {
    return this.em.transactional(async (em) => {
      await lockFolders(em, userId);
      if (input.parentId) await requireOwnFolder(em, userId, input.parentId, 'parentId');
      if (input.parentId && (await depthOf(em, input.parentId)) + 1 > FOLDER_DEPTH_MAX) throw tooDeep();
      return em.create(BrainFolder, { userId, name: input.name.trim(), parentId: input.parentId ?? null });
    });
  }

  /** Renames and/or moves; a move into itself or one of its own sub-folders is refused (400 `brain_folder_cycle`). */
  async update(userId: string, folderId: string, changes: { name?: string; parentId?: string | null }): Promise<BrainFolder> {
    return this.em.transactional(async (em) => {
      // One user's folder moves run one at a time: two crossing moves (A into B, B into A) cannot both pass the check.
      await lockFolders(em, userId);
      const folder = await em.findOne(BrainFolder, { id: folderId, userId });
      if (!folder) throw new NotFoundError('Folder');
      if (changes.name !== undefined) folder.name = changes.name.trim();
      if (changes.parentId !== undefined && changes.parentId !== folder.parentId) {
        if (changes.parentId !== null) {
          await requireOwnFolder(em, userId, changes.parentId, 'parentId');
          const ancestors = await ancestorIds(em, changes.parentId);
          if (changes.parentId === folder.id || ancestors.includes(folder.id)) {
            throw new RuleViolationError('brain_folder_cycle', 'a folder cannot move into itself or one of its sub-folders', ['parentId']);
          }
          if (ancestors.length + 2 + (await heightOf(em, folder.id)) > FOLDER_DEPTH_MAX) throw tooDeep();
        }
        folder.parentId = changes.parentId;
      }
      return folder;
    });
  }

  /** Only an empty folder (no notes, no sub-folders) is deleted; else 400 `brain_folder_not_empty`. */
  async delete(userId: string, folderId: string): Promise<Deleted> {
    try {
      await this.em.transactional(async (em) => {
        const folder = await em.findOne(BrainFolder, { id: folderId, userId });
        if (!folder) throw new NotFoundError('Folder');
        const [notes, folders] = await Promise.all([em.count(BrainNote, { folderId }), em.count(BrainFolder, { parentId: folderId })]);
        if (notes || folders) throw notEmpty();
        em.remove(folder);
      });
    } catch (error) {
      // A note or folder added in between: the restricting key refuses, with the same answer.
      if (error instanceof ForeignKeyConstraintViolationException) throw notEmpty();
      throw error;
    }
    return deleted(folderId, 'Folder');
  }
}

function notEmpty(): RuleViolationError {
  return new RuleViolationError('brain_folder_not_empty', 'only an empty folder can be deleted: move or delete its notes and sub-folders first');
}

function tooDeep(): RuleViolationError {
  return new RuleViolationError('brain_folder_depth', `folders nest at most ${FOLDER_DEPTH_MAX} deep`, ['parentId']);
}

/** The folder must be one of the user's (else NOT_FOUND naming `field`). */
export async function requireOwnFolder(em: EntityManager, userId: string, folderId: string, field: string): Promise<void> {
  if (!(await em.count(BrainFolder, { id: folderId, userId }))) throw new NotFoundError('Folder', { field });
}

/** How many levels a folder is below the top (a top folder: 1). */
async function depthOf(em: EntityManager, folderId: string): Promise<number> {
  return (await ancestorIds(em, folderId)).length + 1;
}

