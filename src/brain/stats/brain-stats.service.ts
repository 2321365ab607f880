import type { EntityManager } from '@mikro-orm/postgresql';
import { brainDataCounts } from '../databases/database.service.js';
import type { BrainDatabaseRecordCount, BrainStats } from './brain-stats.types.js';

/**
 * A word: a run of non-space characters holding at least one character that is not ASCII punctuation,
 * so Markdown marks standing alone (`#`, `-`, `>`, `**`, `---`) are not counted and `don't` is one word.
 */
const WORD = '[^[:space:]]*[^[:space:]\\x21-\\x2F\\x3A-\\x40\\x5B-\\x60\\x7B-\\x7E][^[:space:]]*';

/** Counts of the user's Brain, per type. */
export class BrainStatsService {
  constructor(private readonly em: EntityManager) {}

  async stats(userId: string): Promise<BrainStats> {
    // Started in the same turn: the two statements share one round trip.
    const [[notes], data] = await Promise.all([
      this.em.getConnection().execute<{ notes: number; words: number; folders: number; tags: number; canvases: number }[]>(
        `select (select count(*)::int from brain_note where user_id = ?) as notes,
                (select coalesce(sum(regexp_count(content, ?)), 0)::int from brain_note where user_id = ?) as words,
                (select count(*)::int from brain_folder where user_id = ?) as folders,
                (select count(*)::int from brain_tag where user_id = ?) as tags,
                (select count(*)::int from brain_canvas where user_id = ?) as canvases`,
        [userId, WORD, userId, userId, userId, userId],
      ),
      brainDataCounts(this.em, userId),
    ]);
    const recordsPerDatabase: BrainDatabaseRecordCount[] = [...data.recordsPerDatabase].sort(
      (a, b) => a.name.localeCompare(b.name) || a.databaseId.localeCompare(b.databaseId),
    );
    return { ...notes!, databases: data.databases, records: data.records, forms: data.forms, recordsPerDatabase };
  }
}
