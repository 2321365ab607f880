import type { EntityManager } from '@mikro-orm/postgresql';
import type { LiveChange } from '../live/live-change.js';

/**
 * Which changes go into the change feed (docs/sync.md): the composition names the user-facing records
 * (core names no domain). A change of entity "*" (a writer that cannot name its rows) always does: the
 * sync answers it by asking the client to read everything again.
 */
export type InFeed = (change: LiveChange) => boolean;

/** The feed row writer's statement: raises the person's data version by the rows' count (their cursors). */
const RECORD = 'select lp_record_changes(?, array[?]::text[], array[?]::text[], array[?]::text[])::text as cursor';

/**
 * Writes one person's changes of a committing transaction into the feed, in that transaction (`trx`),
 * and answers the cursor of the last one. `changes` is not empty.
 */
export async function writeFeed(em: EntityManager, trx: unknown, owner: string, changes: readonly LiveChange[]): Promise<string> {
  const row = await em.getConnection().execute<{ cursor: string }>(
    RECORD,
    [owner, changes.map((c) => c.entity), changes.map((c) => c.id), changes.map((c) => c.kind)],
    'get',
    trx as never,
  );
  return row.cursor;
}

/**
 * The same call as the tail of a one-statement write (`with "change" as (insert …) select …`), with
 * `$n` placeholders from `first`: the feed row commits with the record, atomically, without BEGIN/COMMIT.
 */
export function feedSelect(first: number): string {
  return `select lp_record_changes($${first}::uuid, array[$${first + 1}]::text[], array[$${first + 2}]::text[], array[$${first + 3}]::text[])::text as cursor`;
}

export function feedValues(owner: string, change: LiveChange): string[] {
  return [owner, change.entity, change.id, change.kind];
}
