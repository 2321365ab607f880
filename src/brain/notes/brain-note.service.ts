import { withExpectedVersion } from '../../core/database/expected-version.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ForeignKeyConstraintViolationException, LockMode, type FilterQuery } from '@mikro-orm/core';
import { deleted, type Deleted } from '../../core/deleted.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { TEXT_MESSAGES } from '../../core/validation/text.js';
import { NOTE_CONTENT_MAX } from './brain-notes.types.js';
import { findPage } from '../../core/database/find-page.js';
import type { Page, PageArgs } from '../../core/pagination.js';
import { BrainNote } from './brain-note.entity.js';
import { requireOwnFolder } from './brain-folder.service.js';
import { requireOwnBrainTags } from './brain-tag.service.js';
import { BrainTag } from './brain-tag.entity.js';
import { moveToTrash } from '../../trash/trash-kinds.js';
import { NOTE_TRASH } from './brain-note.trash.js';

export interface NoteFilter extends PageArgs {
  folderId?: string;
  unfiled?: boolean;
  tagId?: string;
}

export interface NoteInput {
  title: string;
  content?: string | null;
  folderId?: string | null;
  tagIds?: string[] | null;
}

/** Markdown notes in folders, with Brain tags. */
export class BrainNoteService {
  constructor(private readonly em: EntityManager) {}

  /** Most recently edited first; filter by folder (or `unfiled`) and by tag. */
  async list(userId: string, filter: NoteFilter): Promise<Page<BrainNote>> {
    const where: FilterQuery<BrainNote> = { userId };
    if (filter.folderId) {
      await requireOwnFolder(this.em, userId, filter.folderId, 'folderId');
      where.folderId = filter.folderId;
    } else if (filter.unfiled) where.folderId = null;
    if (filter.tagId) {
      if (!(await this.em.count(BrainTag, { id: filter.tagId, userId }))) throw new NotFoundError('Tag', { field: 'tagId' });
      where.tagIds = { $contains: [filter.tagId] };
    }
    return findPage(this.em, BrainNote, where, { updatedAt: 'desc', id: 'asc' }, filter);
  }

  async get(userId: string, noteId: string): Promise<BrainNote> {
    const note = await this.em.findOne(BrainNote, { id: noteId, userId });
    if (!note) throw new NotFoundError('Note');
    return note;
  }

  /**
   * Id and title of the notes titled `title` (ignoring case and surrounding spaces), else of those whose
   * title contains it; most recently edited first, at most `limit`: how a person names a note.
   */
  async findByTitle(userId: string, title: string, limit: number): Promise<{ id: string; title: string }[]> {
    const text = title.trim().replace(/[\\%_]/g, (c) => `\\${c}`);
    const read = async (pattern: string) =>
      (await this.em.find(BrainNote, { userId, title: { $ilike: pattern } }, { fields: ['id', 'title'], orderBy: { updatedAt: 'desc', id: 'asc' }, limit })).map((n) => ({ id: n.id, title: n.title }));
    const exact = await read(text);
    return exact.length ? exact : read(`%${text}%`);
  }

  /**
   * Adds `text` at the end of the note's content, on a new line unless the content is empty or ends
   * with one. The row is locked for the read-modify-write, so concurrent appends each land; content
   * beyond NOTE_CONTENT_MAX is refused (the words of the content rule) and nothing is written.
   */
  async append(userId: string, noteId: string, text: string): Promise<{ note: BrainNote; appended: number }> {
    return this.em.transactional(async (em) => {
      const note = await em.findOne(BrainNote, { id: noteId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!note) throw new NotFoundError('Note');
      const before = note.content;
      const content = before === '' || before.endsWith('\n') ? before + text : `${before}\n${text}`;
      if (content.length > NOTE_CONTENT_MAX) {
        const message = TEXT_MESSAGES.tooLong('content', NOTE_CONTENT_MAX);
        throw new ValidationError(`The note would hold ${content.length} characters: ${message}`, [{ path: ['text'], message }]);
      }
      note.content = content;
      await flushNote(em);
      return { note, appended: content.length - before.length };
    });
  }

  async create(userId: string, input: NoteInput): Promise<BrainNote> {
    if (input.folderId) await requireOwnFolder(this.em, userId, input.folderId, 'folderId');
    const tagIds = await requireOwnBrainTags(this.em, userId, input.tagIds ?? []);
    const note = this.em.create(BrainNote, {
      userId,
      title: input.title.trim(),
      content: input.content ?? '',
      folderId: input.folderId ?? null,
      tagIds,
    });
    await flushNote(this.em);
    return note;
  }

  async update(userId: string, noteId: string, changes: Partial<NoteInput>, expectedVersion?: number | null): Promise<BrainNote> {
    const target = { entity: BrainNote, where: { id: noteId, userId }, resource: 'Note' };
    return withExpectedVersion(this.em, target, expectedVersion, (em) => new BrainNoteService(em).applyUpdate(userId, noteId, changes));
  }

  private async applyUpdate(userId: string, noteId: string, changes: Partial<NoteInput>): Promise<BrainNote> {
    const note = await this.get(userId, noteId);
    if (changes.folderId) await requireOwnFolder(this.em, userId, changes.folderId, 'folderId');
    if (changes.tagIds) note.tagIds = await requireOwnBrainTags(this.em, userId, changes.tagIds);
    if (changes.title !== undefined) note.title = changes.title.trim();
    if (changes.content !== undefined && changes.content !== null) note.content = changes.content;
    if (changes.folderId !== undefined) note.folderId = changes.folderId;
    await flushNote(this.em);
    return note;
  }

  /** With `expectedVersion`, refused (VERSION_CONFLICT) when the note changed since it was read; nothing is deleted. */
  async delete(userId: string, noteId: string, expectedVersion?: number | null): Promise<Deleted> {
    const target = { entity: BrainNote, where: { id: noteId, userId }, resource: 'Note' };
    return withExpectedVersion(this.em, target, expectedVersion, (em) => new BrainNoteService(em).applyDelete(userId, noteId));
  }

  private async applyDelete(userId: string, noteId: string): Promise<Deleted> {
    const note = await this.get(userId, noteId);
    // One transaction: the trash copies the rows the delete takes, and neither happens without the other.
    await this.em.transactional(async (em) => {
      await moveToTrash(em, userId, NOTE_TRASH, noteId, note.title);
      em.remove(note);
    });
    return deleted(noteId, 'Note');
  }
}

/** The folder deleted between the check and the write: the key refuses, answered like a missing folder. */
async function flushNote(em: EntityManager): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof ForeignKeyConstraintViolationException) throw new NotFoundError('Folder', { field: 'folderId' });
    throw error;
  }
}
