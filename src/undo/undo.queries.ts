import type { EntityManager } from '@mikro-orm/postgresql';

/** Deletes up to `limit` tokens expired at `now` (one bounded statement); answers how many. */
export async function deleteExpiredUndoTokens(em: EntityManager, now: Date, limit: number): Promise<number> {
  const rows = await em.getConnection().execute<{ id: string }[]>(
    'delete from undo_tokens where id in (select id from undo_tokens where expires_at <= ? limit ?) returning id',
    [now, limit],
  );
  return rows.length;
}
