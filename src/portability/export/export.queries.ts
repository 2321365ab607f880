import type { EntityManager } from '@mikro-orm/postgresql';

/** The export's hand-written SQL: the statements are made from the ORM's metadata (export-model.ts `batchSql`). */

/** One batch of an entity's rows owned by the user, after the key `after`, on the caller's transaction. */
export function readBatch(em: EntityManager, sql: string, userId: string, after: string): Promise<Record<string, unknown>[]> {
  return em.getConnection().execute<Record<string, unknown>[]>(sql, [userId, after], 'all', em.getTransactionContext());
}
