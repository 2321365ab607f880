import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../core/database/read-rows.js';

/** Storage to delete: everything below `prefix` on `adapter`, tried `attempts` times so far. */
export interface Release {
  id: string;
  adapter: string;
  prefix: string;
  attempts: number;
}

/** Records releases in the caller's transaction, not to be tried by the job before `leasedUntil`. */
export async function insertReleases(em: EntityManager, releases: Release[], now: Date, leasedUntil: Date): Promise<void> {
  await queryRows(
    em,
    `insert into trash_storage_releases (id, adapter, prefix, attempts, next_attempt_at, created_at)
     select id, adapter, prefix, 0, $4::timestamptz, $5::timestamptz from unnest($1::uuid[], $2::text[], $3::text[]) r(id, adapter, prefix)`,
    [releases.map((r) => r.id), releases.map((r) => r.adapter), releases.map((r) => r.prefix), leasedUntil.toISOString(), now.toISOString()],
  );
}

export async function forgetRelease(em: EntityManager, id: string): Promise<void> {
  await queryRows(em, 'delete from trash_storage_releases where id = $1', [id]);
}

export async function postponeRelease(em: EntityManager, id: string, attempts: number, next: Date, error: string): Promise<void> {
  await queryRows(em, 'update trash_storage_releases set attempts = $2, next_attempt_at = $3, last_error = $4 where id = $1', [id, attempts, next.toISOString(), error]);
}

/** Up to `limit` releases due at `now`, leased until `leasedUntil` (SKIP LOCKED: two runs never take the same one). */
export async function leaseDue(em: EntityManager, now: Date, limit: number, leasedUntil: Date): Promise<Release[]> {
  const rows = await queryRows(
    em,
    `update trash_storage_releases set next_attempt_at = $3::timestamptz
      where id in (select id from trash_storage_releases where next_attempt_at <= $1::timestamptz order by next_attempt_at limit $2 for update skip locked)
      returning id::text as id, adapter, prefix, attempts`,
    [now.toISOString(), limit, leasedUntil.toISOString()],
  );
  return rows as unknown as Release[];
}
