import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../core/database/read-rows.js';

/** Feed rows removed per statement; a run stops after `MAX_CHUNKS` of them and the next run goes on. */
export const PURGE_CHUNK = 5_000;
const MAX_CHUNKS = 200;

/**
 * Removes the change-feed rows that changed before `before`, in chunks (each one statement, its own
 * transaction), and raises each person's horizon to the newest cursor removed: a `since` below it may
 * have lost a change, so the sync answers 410 for it. Answers how many rows went.
 */
export async function purgeFeed(em: EntityManager, before: Date, signal?: AbortSignal): Promise<number> {
  let removed = 0;
  for (let chunk = 0; chunk < MAX_CHUNKS && !signal?.aborted; chunk++) {
    const [row] = await queryRows(
      em,
      `with gone as (
         delete from lp_change_feed where ctid in (select ctid from lp_change_feed where changed_at < $1 limit ${PURGE_CHUNK})
         returning user_id, cursor),
       horizons as (
         insert into lp_change_feed_horizons as h (user_id, purged_through)
         select user_id, max(cursor) from gone group by user_id
         on conflict (user_id) do update set purged_through = greatest(h.purged_through, excluded.purged_through))
       select count(*)::int as n from gone`,
      [before],
    );
    const n = Number(row?.n ?? 0);
    removed += n;
    if (n < PURGE_CHUNK) break;
  }
  return removed;
}
