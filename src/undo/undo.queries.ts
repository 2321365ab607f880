import type { EntityManager } from '@mikro-orm/postgresql';
import type { UndoClaims } from './undo-token-codec.js';

/** Deletes up to `limit` tokens expired at `now` (one bounded statement); answers how many. */
export async function deleteExpiredUndoTokens(em: EntityManager, now: Date, limit: number): Promise<number> {
  const rows = await em.getConnection().execute<{ id: string }[]>(
    'delete from undo_tokens where id in (select id from undo_tokens where expires_at <= ? limit ?) returning id',
    [now, limit],
  );
  return rows.length;
}

/**
 * Records the use of a token that carried its offer (no row until now): true when this is its first use.
 * A concurrent use of the same token waits on this row's key and then finds it (false).
 */
export async function claimCarriedToken(em: EntityManager, claims: UndoClaims, now: Date): Promise<boolean> {
  const rows = await em.getConnection().execute<{ id: string }[]>(
    `insert into undo_tokens (id, created_at, updated_at, user_id, kind, record_id, data, expires_at, used_at)
     values (?, ?, ?, ?, ?, ?, '{}', ?, ?) on conflict (id) do nothing returning id`,
    [claims.id, now, now, claims.userId, claims.kind, claims.recordId, claims.expiresAt, now],
  );
  return rows.length === 1;
}

/** Marks a stored offer used and answers its data; null when it is missing, another person's or used. */
export async function claimStoredToken(em: EntityManager, id: string, userId: string, now: Date): Promise<Record<string, unknown> | null> {
  const rows = await em.getConnection().execute<{ data: Record<string, unknown> }[]>(
    'update undo_tokens set used_at = ?, updated_at = ? where id = ? and user_id = ? and used_at is null returning data',
    [now, now, id, userId],
  );
  return rows[0]?.data ?? null;
}
