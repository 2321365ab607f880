import type { EntityManager } from '@mikro-orm/postgresql';
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
