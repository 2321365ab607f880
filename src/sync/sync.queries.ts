import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../core/database/read-rows.js';

/** The change feed's SQL (the tables of migration 20261128200000: lp_change_feed, lp_change_feed_horizons). */

export interface FeedRow {
  cursor: string;
  entity: string;
  record_id: string;
  kind: string;
  changed_at: Date;
}

/** The person's newest cursor (their data version) and the newest cursor the purge removed; one round trip. */
export async function feedBounds(em: EntityManager, userId: string): Promise<{ head: bigint; horizon: bigint }> {
  const [row] = await queryRows(
    em,
    `select coalesce((select version from lp_data_versions where user_id = $1), 0)::text as head,
            coalesce((select purged_through from lp_change_feed_horizons where user_id = $1), 0)::text as horizon`,
    [userId],
  );
  return { head: BigInt(String(row!.head)), horizon: BigInt(String(row!.horizon)) };
}

/** The person's feed rows after `after`, in cursor order, at most `limit` (the primary key's range). */
export async function feedRowsAfter(em: EntityManager, userId: string, after: bigint, limit: number): Promise<FeedRow[]> {
  // Ordered by the bigint column, not the text alias (text would put "100" before "81").
  return (await queryRows(
    em,
    'select f.cursor::text as cursor, f.entity, f.record_id, f.kind, f.changed_at from lp_change_feed f where f.user_id = $1 and f.cursor > $2 order by f.cursor limit $3',
    [userId, after.toString(), limit],
  )) as unknown as FeedRow[];
}

/**
 * Removes at most `chunk` feed rows changed before `before` (one statement, its own transaction) and raises
 * each person's horizon to the newest cursor removed. Answers how many went.
 */
export async function purgeFeedChunk(em: EntityManager, before: Date, chunk: number): Promise<number> {
  const [row] = await queryRows(
    em,
    `with gone as (
       delete from lp_change_feed where ctid in (select ctid from lp_change_feed where changed_at < $1 limit $2)
       returning user_id, cursor),
     horizons as (
       insert into lp_change_feed_horizons as h (user_id, purged_through)
       select user_id, max(cursor) from gone group by user_id
       on conflict (user_id) do update set purged_through = greatest(h.purged_through, excluded.purged_through))
     select count(*)::int as n from gone`,
    [before, chunk],
  );
  return Number(row?.n ?? 0);
}
