import { Args, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { CurrentUserId } from '../core/current-user.js';
import { StoredFile } from '../files/stored-file.entity.js';
import { Day } from '../planning/day.entity.js';
import { ChecklistItem } from '../planning/checklist-item.entity.js';
import { ChecklistKey } from '../planning/checklist-key.js';
import { Book } from './book.entity.js';
import { BookService } from './book.service.js';
import { ReadingSession } from './reading-session.entity.js';
import { ReadingSessionService } from './reading-session.service.js';
import {
  BookIdArgs,
  BookPage,
  CreateBookArgs,
  CreateReadingSessionArgs,
  ListBooksArgs,
  ListReadingSessionsArgs,
  ReadingSessionIdArgs,
  ReadingSessionPage,
  UpdateBookArgs,
  UpdateReadingSessionArgs,
} from './reading.types.js';
import { Service } from '../core/request-services.js';

@Authorized()
@Resolver(() => Book)
export class BookResolver {
  @Query(() => BookPage, { description: 'Your books, oldest first.' })
  async books(@Args(() => ListBooksArgs) args: ListBooksArgs, @CurrentUserId() userId: string, @Service(BookService) bookService: BookService): Promise<BookPage> {
    return bookService.list(userId, args);
  }

  @Query(() => Book)
  async book(@Args(() => BookIdArgs) args: BookIdArgs, @CurrentUserId() userId: string, @Service(BookService) bookService: BookService): Promise<Book> {
    return bookService.get(userId, args.bookId);
  }

  @Mutation(() => Book, { description: '`coverUrl` is the id of one of your image files.' })
  async createBook(@Args(() => CreateBookArgs) args: CreateBookArgs, @CurrentUserId() userId: string, @Service(BookService) bookService: BookService): Promise<Book> {
    return bookService.create(userId, args);
  }

  @Mutation(() => Book, { description: 'currentPage must stay within 0..totalPages.' })
  async updateBook(@Args(() => UpdateBookArgs) args: UpdateBookArgs, @CurrentUserId() userId: string, @Service(BookService) bookService: BookService): Promise<Book> {
    const { bookId, ...changes } = args;
    return bookService.update(userId, bookId, changes);
  }

  @Mutation(() => Deleted, { description: 'Deletes the book and its reading sessions.' })
  async deleteBook(@Args(() => BookIdArgs) args: BookIdArgs, @CurrentUserId() userId: string, @Service(BookService) bookService: BookService): Promise<Deleted> {
    return bookService.delete(userId, args.bookId);
  }

  @FieldResolver(() => StoredFile, { nullable: true, description: 'The cover image (with its URL), when the book has one.' })
  cover(@Root() book: Book, @Ctx() ctx: AppContext): Promise<StoredFile | null> | null {
    return book.coverUrl ? ctx.loaders.files.fileById.load(book.coverUrl) : null;
  }
}

@Authorized()
@Resolver(() => ReadingSession)
export class ReadingSessionResolver {
  @Query(() => ReadingSessionPage, { description: 'Your reading sessions, oldest first; filter by day, date range or book.' })
  readingSessions(@Args(() => ListReadingSessionsArgs) args: ListReadingSessionsArgs, @CurrentUserId() userId: string, @Service(ReadingSessionService) readingSessionService: ReadingSessionService): Promise<ReadingSessionPage> {
    return readingSessionService.list(userId, args);
  }

  @Query(() => ReadingSession)
  readingSession(@Args(() => ReadingSessionIdArgs) args: ReadingSessionIdArgs, @CurrentUserId() userId: string, @Service(ReadingSessionService) readingSessionService: ReadingSessionService): Promise<ReadingSession> {
    return readingSessionService.get(userId, args.sessionId);
  }

  @Mutation(() => ReadingSession, { description: "Raises the book's currentPage by pagesRead (capped) and ticks the day's READING item with the book id." })
  createReadingSession(@Args(() => CreateReadingSessionArgs) args: CreateReadingSessionArgs, @CurrentUserId() userId: string, @Service(ReadingSessionService) readingSessionService: ReadingSessionService): Promise<ReadingSession> {
    return readingSessionService.create(userId, args);
  }

  @Mutation(() => ReadingSession, { description: "A new pagesRead moves the book's currentPage by the difference (capped)." })
  updateReadingSession(@Args(() => UpdateReadingSessionArgs) args: UpdateReadingSessionArgs, @CurrentUserId() userId: string, @Service(ReadingSessionService) readingSessionService: ReadingSessionService): Promise<ReadingSession> {
    const { sessionId, ...changes } = args;
    return readingSessionService.update(userId, sessionId, changes);
  }

  @Mutation(() => Deleted, { description: "Moves the book's currentPage back by what the session added; the READING item stays." })
  deleteReadingSession(@Args(() => ReadingSessionIdArgs) args: ReadingSessionIdArgs, @CurrentUserId() userId: string, @Service(ReadingSessionService) readingSessionService: ReadingSessionService): Promise<Deleted> {
    return readingSessionService.delete(userId, args.sessionId);
  }

  @FieldResolver(() => Book)
  async book(@Root() session: ReadingSession, @Ctx() ctx: AppContext): Promise<Book> {
    return (await ctx.loaders.reading.bookById.load(session.bookId))!;
  }
}

/** A day's reading sessions (a day is reached only by its owner). */
@Resolver(() => Day)
export class DayReadingResolver {
  @FieldResolver(() => [ReadingSession], { description: 'Oldest first.' })
  readingSessions(@Root() day: Day, @Ctx() ctx: AppContext): Promise<ReadingSession[]> {
    return ctx.loaders.reading.readingSessionsByDayId.load(day.id);
  }
}

/** Spec: "a reading item links to a book through `bookId`": the READING item's value, read as a book id. */
@Resolver(() => ChecklistItem)
export class ChecklistBookResolver {
  @FieldResolver(() => ID, { nullable: true, description: 'READING items: the book read (the item\'s value); null for other keys.' })
  bookId(@Root() item: ChecklistItem): string | null {
    return item.key === ChecklistKey.READING && typeof item.value === 'string' ? item.value : null;
  }
}
