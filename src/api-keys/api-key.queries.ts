import type { EntityManager } from '@mikro-orm/postgresql';

/** The API key check's SQL: one indexed read per uncached key, and the debounced "last used" write. */

export interface KeyRow {
  id: string;
  user_id: string;
  revoked: boolean;
  expires_at: Date | null;
  last_used_at: Date | null;
  plan: 'free' | 'pro';
  plan_expires_at: Date | null;
  timezone: string | null;
}

/** The key with this hash, its owner's plan and time zone (timestamps as Dates), or undefined. */
export async function keyByHash(em: EntityManager, hash: string): Promise<KeyRow | undefined> {
  const rows: KeyRow[] = await em.getConnection().execute(
    `select k.id, k.user_id, k.revoked, k.expires_at, k.last_used_at, u.plan, u.plan_expires_at, s.timezone
       from api_keys k join users u on u.id = k.user_id left join user_settings s on s.user_id = k.user_id
      where k.key_hash = ? limit 1`,
    [hash],
  );
  const row = rows[0];
  if (!row) return undefined;
  row.expires_at = row.expires_at ? new Date(row.expires_at) : null;
  row.plan_expires_at = row.plan_expires_at ? new Date(row.plan_expires_at) : null;
  row.last_used_at = row.last_used_at ? new Date(row.last_used_at) : null;
  return row;
}

/** Records a use; only moves forward, so a slow write cannot set an older time over a newer one. */
export async function recordKeyUse(em: EntityManager, keyId: string, now: Date, notAfter: Date): Promise<void> {
  await em
    .getConnection()
    .execute('update api_keys set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)', [now, keyId, notAfter]);
}
