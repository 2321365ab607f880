import { PAGES_MAX, TITLE_MAX } from '../../reading/reading.types.js';
import { calendarDate, optionalInteger, Refusals, refuse, requireColumns, requireText, RowRefusal, type CsvTable } from './csv.js';

/** The Goodreads library export's columns the import reads (operations.md "Portability"); others are ignored. */
export const GOODREADS_COLUMNS = ['Title', 'Author', 'Number of Pages', 'Date Read', 'Exclusive Shelf'] as const;

export interface ImportedBook {
  row: number;
  title: string;
  author: string;
  totalPages: number;
  shelf: 'read' | 'currently-reading' | 'to-read';
  /** YYYY-MM-DD, for a read book whose date Goodreads knows. */
  dateRead: string | null;
}

/** Goodreads writes dates as `2023/05/14`; `2023-05-14` is taken too. */
export function parseGoodreadsDate(value: string): string | null {
  if (!value) return null;
  const m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value);
  const date = m && calendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
  if (!date) refuse(`Date Read is not a date like 2023/05/14 (got ${JSON.stringify(value.slice(0, 20))})`);
  return date;
}

function bookOf(row: number, c: Record<string, string>): ImportedBook {
  const title = requireText(c.Title ?? '', 'Title', TITLE_MAX);
  const author = requireText(c.Author ?? '', 'Author', TITLE_MAX);
  // A book here has a page count (reading sessions move through it); Goodreads leaves it empty for some editions.
  if (!c['Number of Pages']) refuse('Number of Pages is empty (a book needs its page count)');
  const totalPages = optionalInteger(c['Number of Pages']!, 'Number of Pages', 1, PAGES_MAX)!;
  const shelfText = (c['Exclusive Shelf'] ?? '').toLowerCase();
  const shelf = shelfText === 'read' || shelfText === 'currently-reading' ? shelfText : 'to-read';
  const dateRead = parseGoodreadsDate(c['Date Read'] ?? '');
  return { row, title, author, totalPages, shelf, dateRead: shelf === 'read' ? dateRead : null };
}

export function parseBooks(table: CsvTable): { books: ImportedBook[]; refusals: Refusals } {
  requireColumns(table, GOODREADS_COLUMNS, 'Goodreads library');
  const refusals = new Refusals();
  const books: ImportedBook[] = [];
  for (const { row, cells } of table.rows) {
    try {
      books.push(bookOf(row, cells));
    } catch (error) {
      if (!(error instanceof RowRefusal)) throw error;
      refusals.add(row, error.message);
    }
  }
  return { books, refusals };
}
