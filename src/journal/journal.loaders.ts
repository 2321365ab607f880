import DataLoader from 'dataloader';
import type { DayFieldSources } from '../planning/day-fields.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readRows } from '../core/database/read-rows.js';
import { groupUnder } from '../core/group-under.js';
import { JournalEntry } from './journal-entry.entity.js';

/** Per-request loaders of the journal (plain read-only rows, keyed on owner-checked day ids). */
export function createJournalLoaders(em: EntityManager) {
  return {
    journalEntriesByDayId: new DataLoader<string, JournalEntry[]>(async (dayIds) => {
      const rows = await readRows(em, JournalEntry, { where: 'dayId', values: dayIds, orderBy: ['createdAt', 'id'] });
      return groupUnder(dayIds, rows, (r) => r.dayId);
    }),
  };
}

export type JournalLoaders = ReturnType<typeof createJournalLoaders>;

/** The Day fields this domain adds and the records they read (followed by the day and week subscriptions). */
export const JOURNAL_DAY_FIELDS = { journalEntries: ['JournalEntry'] } as const satisfies DayFieldSources;
