import { recordFact } from '../core/events/fact-dispatcher.js';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { findPage } from '../core/database/find-page.js';
import { FileService } from '../files/file.service.js';
import type { FilesRuntime } from '../files/files-runtime.js';
import { Book } from './book.entity.js';
import type { ServiceScope } from '../core/request-services.js';

export interface NewBook {
  title: string;
  author: string;
  totalPages: number;
  coverUrl?: string | null;
  currentPage?: number | null;
}

export interface BookChanges {
  title?: string;
  author?: string;
  totalPages?: number;
  currentPage?: number;
  /** null removes the cover. */
  coverUrl?: string | null;
}

/** The caller's book, its row locked for the transaction (serialises page changes), or NOT_FOUND naming `field`. */
export async function lockBook(em: EntityManager, userId: string, bookId: string, field?: string): Promise<Book> {
  const book = await em.findOne(Book, { id: bookId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!book) throw new NotFoundError('Book', field ? { field } : undefined);
  return book;
}

/** `lockBook` for many books: one statement, rows locked in id order. */
export async function lockBooks(em: EntityManager, userId: string, bookIds: readonly string[], field?: string): Promise<Map<string, Book>> {
  const wanted = [...new Set(bookIds)];
  const books = await em.find(Book, { id: { $in: wanted }, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } });
  if (books.length !== wanted.length) throw new NotFoundError('Book', field ? { field } : undefined);
  return new Map(books.map((book) => [book.id, book]));
}

function checkPages(currentPage: number, totalPages: number, field: 'currentPage' | 'totalPages'): void {
  if (currentPage < 0 || currentPage > totalPages) {
    const message = `currentPage must be within 0..totalPages (${currentPage} of ${totalPages})`;
    throw new ValidationError(message, [{ path: [field], message }]);
  }
}

/** The books of one user. A cover is one of the user's own image files. */
export class BookService {
  /** Made for a request with the files runtime (storage adapters, signing). */
  static forRequest(ctx: ServiceScope): BookService {
    return new BookService(ctx.em, ctx.deps.files);
  }

  private readonly files: FileService;

  constructor(
    private readonly em: EntityManager,
    rt: FilesRuntime,
  ) {
    this.files = new FileService(em, rt);
  }

  async list(userId: string, args: PageArgs): Promise<Page<Book>> {
    return findPage(this.em, Book, { userId }, { createdAt: 'asc', id: 'asc' }, args);
  }

  async get(userId: string, bookId: string): Promise<Book> {
    const book = await this.em.findOne(Book, { id: bookId, userId });
    if (!book) throw new NotFoundError('Book');
    return book;
  }

  async create(userId: string, input: NewBook): Promise<Book> {
    const currentPage = input.currentPage ?? 0;
    checkPages(currentPage, input.totalPages, 'currentPage');
    if (input.coverUrl) await this.files.requireOwnedFile(userId, input.coverUrl, { field: 'coverUrl', image: true });
    const book = this.em.create(Book, {
      userId,
      title: input.title.trim(),
      author: input.author.trim(),
      totalPages: input.totalPages,
      currentPage,
      coverUrl: input.coverUrl ?? null,
    });
    await this.em.flush();
    return book;
  }

  /** Many books in one flush (an import's batch), each checked as `create` checks one; no covers. */
  async createMany(userId: string, inputs: readonly Omit<NewBook, 'coverUrl'>[]): Promise<Book[]> {
    const books = inputs.map((input) => {
      const currentPage = input.currentPage ?? 0;
      checkPages(currentPage, input.totalPages, 'currentPage');
      return this.em.create(Book, { userId, title: input.title.trim(), author: input.author.trim(), totalPages: input.totalPages, currentPage, coverUrl: null });
    });
    await this.em.flush();
    return books;
  }

  /** The resulting currentPage must lie within 0..totalPages (a refusal changes nothing). */
  async update(userId: string, bookId: string, changes: BookChanges): Promise<Book> {
    return this.em.transactional(async (em) => {
      const book = await lockBook(em, userId, bookId);
      const totalPages = changes.totalPages ?? book.totalPages;
      const currentPage = changes.currentPage ?? book.currentPage;
      checkPages(currentPage, totalPages, changes.currentPage !== undefined ? 'currentPage' : 'totalPages');
      if (changes.coverUrl) await this.files.requireOwnedFile(userId, changes.coverUrl, { field: 'coverUrl', image: true });
      if (changes.title !== undefined) book.title = changes.title.trim();
      if (changes.author !== undefined) book.author = changes.author.trim();
      if (changes.coverUrl !== undefined) book.coverUrl = changes.coverUrl;
      book.totalPages = totalPages;
      if (book.currentPage !== currentPage) recordFact(em, userId, 'book_progressed', { bookId: book.id });
      book.currentPage = currentPage;
      return book;
    });
  }

  /** Its reading sessions go with it; checklist items that named it keep the id as their value. */
  async delete(userId: string, bookId: string): Promise<Deleted> {
    const book = await this.get(userId, bookId);
    await this.em.remove(book).flush();
    return deleted(bookId, 'Book');
  }
}
