import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../../core/pagination.js';
import { requiredText } from '../../../core/validation/tool-arguments.js';
import type { Book } from '../../../reading/book.entity.js';
import { BookService } from '../../../reading/book.service.js';
import { ReadingSessionService } from '../../../reading/reading-session.service.js';
import { CURRENT_PAGE_MESSAGES, DURATION_MESSAGES, PAGES_MAX, pagesMessages, READING_MINUTES_MAX, TITLE_MAX } from '../../../reading/reading.types.js';
import { idOrName } from './by-name.js';
import { pageArgs, wholeNumber } from '../../../core/validation/tool-arguments.js';
import { dayIdOrToday } from './planning.tools.js';
import { isoDateTime, pageMetaOut } from './outputs.js';
import { ADDITIVE, defineTool, READ_ONLY, type ConnectorTool } from './tool.js';

/** Books read per page when a title is matched, and how many pages at most. */
const BOOK_PAGES = 10;

/** The user's books (oldest first), bounded, for matching a title. */
async function allBooks(service: BookService, userId: string): Promise<Book[]> {
  const all: Book[] = [];
  for (let page = 1; page <= BOOK_PAGES; page++) {
    const { items, meta } = await service.list(userId, { page, limit: MAX_PAGE_SIZE });
    all.push(...items);
    if (all.length >= meta.total || !items.length) break;
  }
  return all;
}

const bookOut = z.object({
  id: z.string(),
  title: z.string(),
  author: z.string(),
  currentPage: z.number(),
  totalPages: z.number(),
  percent: z.number().describe('Progress, 0-100, rounded.'),
  finished: z.boolean().describe('currentPage has reached totalPages.'),
  coverFileId: z.string().nullable(),
  createdAt: isoDateTime,
});

function bookJson(book: Book) {
  return {
    id: book.id,
    title: book.title,
    author: book.author,
    currentPage: book.currentPage,
    totalPages: book.totalPages,
    percent: Math.round((book.currentPage / book.totalPages) * 100),
    finished: book.currentPage >= book.totalPages,
    coverFileId: book.coverUrl ?? null,
    createdAt: book.createdAt.toISOString(),
  };
}

export const readingTools: ConnectorTool[] = [
  defineTool({
    name: 'reading_books',
    mirrors: 'Query.books',
    title: 'List books',
    description: `The user's books, oldest first, each with its progress (current page, percent, finished); paginated (\`page\` from 1, \`limit\` up to ${MAX_PAGE_SIZE}). Books have no status: a book is finished when its current page reaches its last.`,
    inputSchema: pageArgs,
    outputSchema: { books: z.array(bookOut), meta: pageMetaOut },
    area: 'journal',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const page = await ctx.service(BookService).list(ctx.userId, args);
      return { books: page.items.map(bookJson), meta: page.meta };
    },
  }),
  defineTool({
    name: 'reading_add_book',
    mirrors: 'Mutation.createBook',
    title: 'Add a book',
    description: `Adds a book to the user's reading list: title, author, total pages (1-${PAGES_MAX}), optionally the page reached (default 0) and a cover (\`coverUrl\`: the id of one of the user's image files, see files_list). Records no event.`,
    inputSchema: {
      title: requiredText('title', TITLE_MAX),
      author: requiredText('author', TITLE_MAX),
      totalPages: wholeNumber('totalPages', 1, PAGES_MAX, pagesMessages('totalPages')),
      currentPage: wholeNumber('currentPage', 0, undefined, CURRENT_PAGE_MESSAGES).optional().describe('0..totalPages; 0 by default.'),
      coverUrl: z.string().uuid().optional().describe("The id of one of the user's image files."),
    },
    outputSchema: bookOut.shape,
    area: 'journal',
    annotations: ADDITIVE,
    async run(args, ctx) {
      return bookJson(await ctx.service(BookService).create(ctx.userId, args));
    },
  }),
  defineTool({
    name: 'reading_log_session',
    mirrors: 'Mutation.createReadingSession',
    title: 'Log reading',
    description: `Logs a reading session of a book (\`bookId\`, or its title as \`book\`) on a day (today by default): pages read (1-${PAGES_MAX}) and minutes (1-${READING_MINUTES_MAX}). Moves the book's current page on (capped at its last page), earns 10 XP and ticks the day's READING checklist item when it is not ticked yet (records checklist_completed).`,
    inputSchema: {
      bookId: z.string().uuid().optional().describe('The book; or give its title as `book`.'),
      book: z.string().min(1).max(TITLE_MAX).optional().describe("The book's title (or a unique part of it), when no bookId is given."),
      pagesRead: wholeNumber('pagesRead', 1, PAGES_MAX, pagesMessages('pagesRead')),
      duration: wholeNumber('duration', 1, READING_MINUTES_MAX, DURATION_MESSAGES).describe('Minutes.'),
      dayId: z.string().uuid().optional().describe("A day's id; the user's today when absent."),
    },
    outputSchema: {
      id: z.string(),
      dayId: z.string(),
      pagesRead: z.number(),
      duration: z.number(),
      book: bookOut,
    },
    area: 'journal',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const service = ctx.service(BookService);
      const bookId = await idOrName('Book', { id: args.bookId, name: args.book }, () => allBooks(service, ctx.userId), (b) => b.title, (b) => b.id);
      const dayId = await dayIdOrToday(ctx, args.dayId);
      const session = await ctx.service(ReadingSessionService).create(ctx.userId, { dayId, bookId, pagesRead: args.pagesRead, duration: args.duration });
      // Read back on a clean entity manager: the candidates loaded above still hold the page before.
      const book = await ctx.on(ctx.em.fork()).service(BookService).get(ctx.userId, bookId);
      return { id: session.id, dayId: session.dayId, pagesRead: session.pagesRead, duration: session.duration, book: bookJson(book) };
    },
  }),
];
