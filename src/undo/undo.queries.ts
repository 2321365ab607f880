import type { EntityManager } from '@mikro-orm/postgresql';
import type { UndoClaims } from './undo-token-codec.js';
import { quoteIdentifier as quote } from '../core/database/foreign-keys.queries.js';
import { queryRows } from '../core/database/read-rows.js';

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
  // queryRows: in the undo's transaction (a refused inverse rolls the use back), not on a pool connection.
  const rows = await queryRows(
    em,
    `insert into undo_tokens (id, created_at, updated_at, user_id, kind, record_id, data, expires_at, used_at)
     values ($1, $2, $2, $3, $4, $5, '{}', $6, $2) on conflict (id) do nothing returning id`,
    [claims.id, now, claims.userId, claims.kind, claims.recordId, claims.expiresAt],
  );
  return rows.length === 1;
}

/** Marks a stored offer used and answers its data; null when it is missing, another person's or used. */
export async function claimStoredToken(em: EntityManager, id: string, userId: string, now: Date): Promise<Record<string, unknown> | null> {
  const rows = await queryRows(em, 'update undo_tokens set used_at = $1, updated_at = $1 where id = $2 and user_id = $3 and used_at is null returning data', [now, id, userId]);
  return (rows[0]?.data as Record<string, unknown> | undefined) ?? null;
}

export interface TagHolder {
  id: string;
  tags: string[];
}

/** Up to `limit` rows of `table` (cards, notes) whose `tag_ids` hold `tagId`, each with its list as it is. */
export async function tagHoldersOf(em: EntityManager, table: string, userId: string, tagId: string, limit: number): Promise<TagHolder[]> {
  const rows = await queryRows(em, `select id::text as id, tag_ids::text[] as tags from ${quote(table)} where user_id = $1 and tag_ids @> array[$2::uuid] limit $3`, [userId, tagId, limit]);
  return rows as unknown as TagHolder[];
}

/**
 * Puts `tagId` back into the holders' `tag_ids` where it is not: at its place when the list is otherwise
 * unchanged since (the kept list minus the tag), else at the end. Answers the ids changed.
 */
export async function putTagBack(em: EntityManager, table: string, userId: string, tagId: string, holders: readonly TagHolder[]): Promise<string[]> {
  const rows = await queryRows(
    em,
    `update ${quote(table)} t set tag_ids = case when t.tag_ids = array_remove(k.tags, $3::uuid) then k.tags else array_append(t.tag_ids, $3::uuid) end
       from jsonb_to_recordset($1::jsonb) as k(id uuid, tags uuid[])
      where t.id = k.id and t.user_id = $2 and not ($3::uuid = any(t.tag_ids))
      returning t.id::text as id`,
    [JSON.stringify(holders), userId, tagId],
  );
  return rows.map((row) => String(row.id));
}
