import DataLoader from 'dataloader';
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
