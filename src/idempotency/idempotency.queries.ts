import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement } from '../core/database/read-batch.js';
import { queryRows } from '../core/database/read-rows.js';

/**
 * A write on a pooled connection of its own, prepared once per connection: never in a read batch, whose
 * statements share one implicit transaction (a claim waiting on a concurrent one would hold the others).
 */
function write(em: EntityManager, sql: string, params: readonly unknown[]): Promise<Record<string, unknown>[]> {
  return runStatement(em.getConnection().getKnex(), sql, params);
}

/**
 * The idempotency keys' SQL: one statement to claim, one to keep the answer, one chunk of the purge.
 * Sent straight to the pg client: through knex's runner they were most of a keyed write's added CPU.
 */

/** How long a key lives from its first request (issue 38: 24 h). */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * A first request that left no answer this long after it started is taken to have died with its
 * process (a request runs for seconds): its key may be claimed again.
 */
export const IN_PROGRESS_LEASE_MS = 5 * 60 * 1000;

export interface KeyRow {
  fingerprint: string;
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
}

/**
 * Claims the key for a request: inserted, or taken over when the row there has expired (lazy expiry:
 * the purge job need not have run) or its first request died. True when claimed. The primary key
 * serialises concurrent claims of one key: the second waits for the first's insert to commit, then
 * finds the conflict (and, its WHERE false, changes nothing).
 */
export async function claimKey(em: EntityManager, userId: string, key: string, fingerprint: string, now: Date): Promise<boolean> {
  const rows = await write(
    em,
    `insert into idempotency_keys as k (user_id, key, fingerprint, created_at) values ($1, $2, $3, $4)
     on conflict (user_id, key) do update set fingerprint = excluded.fingerprint, created_at = excluded.created_at, status = null, headers = null, body = null
      where k.created_at <= $5 or (k.status is null and k.created_at <= $6)
     returning 1`,
    [userId, key, fingerprint, now, new Date(now.getTime() - KEY_LIFETIME_MS), new Date(now.getTime() - IN_PROGRESS_LEASE_MS)],
  );
  return rows.length > 0;
}

/**
 * The key's row as it is (its first request's fingerprint and answer; null status while that one runs).
 * A statement of its own after a claim that lost: its snapshot sees the winner's committed insert, which
 * the claim's own snapshot, taken before it waited, would not.
 */
export async function keyRow(em: EntityManager, userId: string, key: string): Promise<KeyRow | undefined> {
  const rows = await queryRows(em, 'select fingerprint, status, headers, body from idempotency_keys where user_id = $1 and key = $2', [userId, key]);
  return rows[0] as unknown as KeyRow | undefined;
}

/** Keeps the first request's answer (`body` null: too large to keep, its status only). */
export async function completeKey(em: EntityManager, userId: string, key: string, answer: { status: number; headers: Record<string, string>; body: string | null }): Promise<void> {
  await write(em, 'update idempotency_keys set status = $1, headers = $2, body = $3 where user_id = $4 and key = $5', [answer.status, JSON.stringify(answer.headers), answer.body, userId, key]);
}

/** Gives the key up (its request wrote nothing, or failed with a 5xx): a retry runs again. */
export async function releaseKey(em: EntityManager, userId: string, key: string): Promise<void> {
  await write(em, 'delete from idempotency_keys where user_id = $1 and key = $2 and status is null', [userId, key]);
}

/** Deletes up to `chunk` keys past their lifetime; answers how many (the job repeats while it is `chunk`). */
export async function purgeExpiredKeys(em: EntityManager, now: Date, chunk: number): Promise<number> {
  const rows = await write(
    em,
    `with gone as (
       delete from idempotency_keys where (user_id, key) in (select user_id, key from idempotency_keys where created_at <= $1 limit $2)
       returning 1)
     select count(*)::text as n from gone`,
    [new Date(now.getTime() - KEY_LIFETIME_MS), chunk],
  );
  return Number(rows[0]?.n ?? 0);
}
