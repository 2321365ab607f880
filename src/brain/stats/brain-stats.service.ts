import type { EntityManager } from '@mikro-orm/postgresql';
import { brainDataCounts } from '../databases/brain-data.queries.js';
import { noteCounts } from './brain-stats.queries.js';
import type { BrainDatabaseRecordCount, BrainStats } from './brain-stats.types.js';

/** Counts of the user's Brain, per type. */
export class BrainStatsService {
  constructor(private readonly em: EntityManager) {}

  async stats(userId: string): Promise<BrainStats> {
    // Started in the same turn: the two statements share one round trip.
    const [notes, data] = await Promise.all([
      noteCounts(this.em, userId),
      brainDataCounts(this.em, userId),
    ]);
    const recordsPerDatabase: BrainDatabaseRecordCount[] = [...data.recordsPerDatabase].sort(
      (a, b) => a.name.localeCompare(b.name) || a.databaseId.localeCompare(b.databaseId),
    );
    return { ...notes, databases: data.databases, records: data.records, forms: data.forms, recordsPerDatabase };
  }
}
