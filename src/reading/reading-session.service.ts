import { recordFact } from '../core/events/fact-dispatcher.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { findPage } from '../core/database/find-page.js';
import { completeChecklistItem, completeChecklistItems } from '../planning/checklist.service.js';
import { ChecklistKey } from '../planning/checklist-key.js';
import { dayRangeWhere, lockDay, lockDays, type DayRange } from '../planning/day-scope.js';
import { Book } from './book.entity.js';
import { lockBook, lockBooks } from './book.service.js';
import { ReadingSession } from './reading-session.entity.js';

export interface NewReadingSession {
  dayId: string;
  bookId: string;
  pagesRead: number;
  /** Minutes. */
  duration: number;
}

export interface ReadingSessionFilter extends DayRange, PageArgs {
  bookId?: string | null;
}

/** The caller's session, its row locked (then its book's: one order for every writer), or NOT_FOUND. */
async function lockSession(em: EntityManager, userId: string, sessionId: string): Promise<ReadingSession> {
  const session = await em.findOne(ReadingSession, { id: sessionId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!session) throw new NotFoundError('ReadingSession');
  return session;
}

/** Moves the book on by `pagesRead`, capped at its last page; returns how many pages it really moved. */
function advance(book: Book, pagesRead: number): number {
  const added = Math.min(pagesRead, book.totalPages - book.currentPage);
  book.currentPage += added;
  return added;
}

/** Takes back what a session added (never below page 0, whatever was changed by hand since). */
function takeBack(book: Book, session: ReadingSession): void {
  book.currentPage = Math.max(0, book.currentPage - session.pagesAdded);
}

/**
 * Reading sessions of one user. A session raises its book's currentPage by pagesRead (capped at
 * totalPages) and ticks that day's READING checklist item with the book id; changing or deleting it
 * moves the book back by what it had added. The book's row lock serialises page changes.
 */
export class ReadingSessionService {
  constructor(private readonly em: EntityManager) {}

  async create(userId: string, input: NewReadingSession): Promise<ReadingSession> {
    return this.em.transactional(async (em) => {
      const day = await lockDay(em, userId, input.dayId);
      const book = await lockBook(em, userId, input.bookId, 'bookId');
      const pagesAdded = advance(book, input.pagesRead);
      const session = em.create(ReadingSession, { userId, dayId: day.id, bookId: book.id, pagesRead: input.pagesRead, duration: input.duration, pagesAdded });
      recordFact(em, userId, 'reading_logged', { sessionId: session.id, bookId: book.id });
      await em.flush();
      await completeChecklistItem(em, day, ChecklistKey.READING, book.id);
      return session;
    });
  }

  /**
   * Many sessions at once (an import's batch), each as `create` makes one, in input order: the days and
   * books locked in one statement each, the sessions inserted in one flush, and each day's READING item
   * ticked (with the book of its first session) in one more.
   */
  async createMany(userId: string, inputs: readonly NewReadingSession[]): Promise<ReadingSession[]> {
    if (!inputs.length) return [];
    return this.em.transactional(async (em) => {
      const days = await lockDays(em, userId, inputs.map((i) => i.dayId));
      const books = await lockBooks(em, userId, inputs.map((i) => i.bookId), 'bookId');
      const firstBook = new Map<string, string>();
      const sessions = inputs.map((input) => {
        const book = books.get(input.bookId)!;
        const session = em.create(ReadingSession, { userId, dayId: input.dayId, bookId: book.id, pagesRead: input.pagesRead, duration: input.duration, pagesAdded: advance(book, input.pagesRead) });
        recordFact(em, userId, 'reading_logged', { sessionId: session.id, bookId: book.id });
        if (!firstBook.has(input.dayId)) firstBook.set(input.dayId, book.id);
        return session;
      });
      await em.flush();
      await completeChecklistItems(em, [...days.values()], ChecklistKey.READING, (day) => firstBook.get(day.id));
      return sessions;
    });
  }

  /** Oldest first; a dayId or bookId that is not the caller's answers NOT_FOUND. */
  async list(userId: string, filter: ReadingSessionFilter): Promise<Page<ReadingSession>> {
    const where = { userId, ...(await dayRangeWhere(this.em, userId, filter)) } as FilterQuery<ReadingSession> & Record<string, unknown>;
    if (filter.bookId) {
      const owned = await this.em.count(Book, { id: filter.bookId, userId });
      if (!owned) throw new NotFoundError('Book', { field: 'bookId' });
      where.bookId = filter.bookId;
    }
    return findPage(this.em, ReadingSession, where, { createdAt: 'asc', id: 'asc' }, filter);
  }

  async get(userId: string, sessionId: string): Promise<ReadingSession> {
    const session = await this.em.findOne(ReadingSession, { id: sessionId, userId });
    if (!session) throw new NotFoundError('ReadingSession');
    return session;
  }

  async update(userId: string, sessionId: string, changes: { pagesRead?: number; duration?: number }): Promise<ReadingSession> {
    return this.em.transactional(async (em) => {
      const session = await lockSession(em, userId, sessionId);
      if (changes.pagesRead !== undefined && changes.pagesRead !== session.pagesRead) {
        const book = await lockBook(em, userId, session.bookId);
        takeBack(book, session);
        session.pagesAdded = advance(book, changes.pagesRead);
        session.pagesRead = changes.pagesRead;
        recordFact(em, userId, 'book_progressed', { bookId: book.id });
      }
      if (changes.duration !== undefined) session.duration = changes.duration;
      return session;
    });
  }

  /** The book's currentPage goes back by what the session added; the day's READING item stays as it is. */
  async delete(userId: string, sessionId: string): Promise<Deleted> {
    return this.em.transactional(async (em) => {
      const session = await lockSession(em, userId, sessionId);
      const book = await lockBook(em, userId, session.bookId);
      takeBack(book, session);
      em.remove(session);
      recordFact(em, userId, 'reading_deleted', { sessionId });
      return deleted(sessionId, 'Reading session');
    });
  }
}
