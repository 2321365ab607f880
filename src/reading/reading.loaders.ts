import DataLoader from 'dataloader';
import type { DayFieldSources } from '../planning/day-fields.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readRows } from '../core/database/read-rows.js';
import { groupUnder } from '../core/group-under.js';
import { Book } from './book.entity.js';
import { ReadingSession } from './reading-session.entity.js';

/**
 * Per-request loaders of the reading module (plain read-only rows). They key on ids reached through an
 * owner-checked read (a day, a session), so need no user scope of their own.
 */
export function createReadingLoaders(em: EntityManager) {
  return {
    readingSessionsByDayId: new DataLoader<string, ReadingSession[]>(async (dayIds) => {
      const rows = await readRows(em, ReadingSession, { where: 'dayId', values: dayIds, orderBy: ['createdAt', 'id'] });
      return groupUnder(dayIds, rows, (r) => r.dayId);
    }),

    /** A book by id, or null when it no longer exists. */
    bookById: new DataLoader<string, Book | null>(async (ids) => {
      const rows = await readRows(em, Book, { where: 'id', values: ids });
      const byId = new Map(rows.map((b) => [b.id, b]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}

export type ReadingLoaders = ReturnType<typeof createReadingLoaders>;

/** The Day fields this domain adds and the records they read (followed by the day and week subscriptions). */
export const READING_DAY_FIELDS = { readingSessions: ['ReadingSession', 'Book', 'StoredFile'] } as const satisfies DayFieldSources;
