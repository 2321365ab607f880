import type { EntityManager } from '@mikro-orm/postgresql';
import { BRAIN_SEARCH_SOURCES } from '../search/search-sources.js';

/**
 * The Brain notes' hand-written SQL: recursive folder walks, advisory locks and array updates the ORM
 * cannot express. Each runs on the caller's transaction when there is one.
 */

/** Serialises the user's folder moves and creations for the transaction (depth and cycle checks). */
export async function lockFolders(em: EntityManager, userId: string): Promise<void> {
  await em.getConnection().execute(`select pg_advisory_xact_lock(hashtextextended('brain_folder:' || ?, 0))`, [userId], 'all', em.getTransactionContext());
}

/** The ids of a folder's ancestors, nearest first (the folder itself excluded). */
export async function ancestorIds(em: EntityManager, folderId: string): Promise<string[]> {
  const rows: { id: string }[] = await em.getConnection().execute(
    `with recursive up(id, parent_id, depth) as (
       select id, parent_id, 0 from brain_folder where id = ?
       union all
       select f.id, f.parent_id, up.depth + 1 from brain_folder f join up on f.id = up.parent_id where up.depth < 1000
     ) select id from up where depth > 0 order by depth`,
    [folderId],
    'all',
    em.getTransactionContext(),
  );
  return rows.map((r) => r.id);
}

/** How many levels of sub-folders a folder has below it (none: 0). */
export async function heightOf(em: EntityManager, folderId: string): Promise<number> {
  const [row] = await em.getConnection().execute<{ height: number }[]>(
    `with recursive down(id, depth) as (
       select id, 1 from brain_folder where parent_id = ?
       union all
       select f.id, down.depth + 1 from brain_folder f join down on f.parent_id = down.id where down.depth < 1000
     ) select coalesce(max(depth), 0)::int as height from down`,
    [folderId],
    'all',
    em.getTransactionContext(),
  );
  return row?.height ?? 0;
}

/** Takes the tag off every note of the user that carries it (one statement). */
export async function removeTagFromNotes(em: EntityManager, notesTable: string, userId: string, tagId: string): Promise<void> {
  await em.getConnection().execute(
    `update "${notesTable}" set "tag_ids" = array_remove("tag_ids", ?::uuid) where "user_id" = ? and "tag_ids" @> array[?::uuid]`,
    [tagId, userId, tagId],
    'all',
    em.getTransactionContext(),
  );
}

/**
 * For each entity type, how many of `ids` are the user's entities of that type, against how many were
 * asked: one statement over the search sources. An unknown type answers undefined.
 */
export async function ownEntityCounts(em: EntityManager, userId: string, wanted: Map<string, Set<string>>): Promise<{ n: number; wanted: number }[] | undefined> {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const [type, ids] of wanted) {
    const source = BRAIN_SEARCH_SOURCES.find((s) => s.type === type);
    if (!source) return undefined;
    parts.push(`select count(*)::int as n, ?::int as wanted from "${source.table}" e where e."${source.ownerColumn}" = ? and e.id = any(string_to_array(?, ',')::uuid[])`);
    // ids are checked UUIDs; one text value (knex would spread an array into several placeholders)
    params.push(ids.size, userId, [...ids].join(','));
  }
  return em.getConnection().execute<{ n: number; wanted: number }[]>(parts.join(' union all '), params);
}
