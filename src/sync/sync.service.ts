import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../core/errors.js';
import { currentRecords, isSynced } from './current-records.queries.js';
import { SyncCursorExpiredError } from './sync-errors.js';
import { feedBounds, feedRowsAfter, type FeedRow } from './sync.queries.js';

/** Changes per page when the client names no limit, and at most. */
export const SYNC_DEFAULT_LIMIT = 200;
export const SYNC_MAX_LIMIT = 1000;

export interface SyncRecordGroup {
  type: string;
  records: Record<string, unknown>[];
}

export interface SyncTombstone {
  type: string;
  id: string;
  deletedAt: Date;
}

export interface SyncPage {
  changes: SyncRecordGroup[];
  deleted: SyncTombstone[];
  cursor: string;
  hasMore: boolean;
}


const CURSOR = /^(0|[1-9]\d{0,18})$/;

function parseCursor(since: string | null | undefined): bigint {
  if (since === null || since === undefined || since === '') return 0n;
  if (!CURSOR.test(since)) throw new ValidationError('Invalid cursor', [{ path: ['since'], message: 'must be a cursor this service answered (digits)' }]);
  return BigInt(since);
}

function parseLimit(limit: number | null | undefined): number {
  if (limit === null || limit === undefined) return SYNC_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > SYNC_MAX_LIMIT) {
    throw new ValidationError('Invalid limit', [{ path: ['limit'], message: `must be a whole number from 1 to ${SYNC_MAX_LIMIT}` }]);
  }
  return limit;
}

/**
 * The change feed read (docs/sync.md): the person's records changed after `since`, as they are now,
 * grouped by type; tombstones for the deleted ones; the cursor to ask from next and whether more remain.
 * A page is the next `limit` feed rows; a record changed several times in it is answered once (a record
 * in two pages is answered twice, both times as it is now: applying a page is idempotent).
 */
export async function readSyncPage(em: EntityManager, userId: string, since: string | null | undefined, limitArg?: number | null): Promise<SyncPage> {
  const after = parseCursor(since);
  const limit = parseLimit(limitArg);
  const { head, horizon } = await feedBounds(em, userId);
  if (after < horizon) throw new SyncCursorExpiredError(head.toString(), 'the feed no longer holds the changes since that cursor');
  if (after > head) throw new SyncCursorExpiredError(head.toString(), 'the cursor is newer than any change of yours');
  const rows = await feedRowsAfter(em, userId, after, limit + 1);
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  // A writer that could not name its rows: nothing short of reading everything again is right.
  if (page.some((row) => row.entity === '*')) throw new SyncCursorExpiredError(head.toString(), 'many records changed at once');
  // Each record's latest change in the page.
  const latest = new Map<string, FeedRow>();
  for (const row of page) {
    const key = `${row.entity}\u0000${row.record_id}`;
    latest.delete(key);
    latest.set(key, row);
  }
  const wanted = new Map<string, FeedRow[]>();
  const deleted: SyncTombstone[] = [];
  for (const row of latest.values()) {
    if (!isSynced(em, row.entity)) continue;
    if (row.kind === 'deleted') deleted.push({ type: row.entity, id: row.record_id, deletedAt: new Date(row.changed_at) });
    else {
      const list = wanted.get(row.entity);
      if (list) list.push(row);
      else wanted.set(row.entity, [row]);
    }
  }
  const changes: SyncRecordGroup[] = [];
  for (const [type, list] of [...wanted].sort(([a], [b]) => a.localeCompare(b))) {
    const records = await currentRecords(em, userId, type, list.map((row) => row.record_id));
    const found = new Set(records.map((record) => record.id as string));
    if (records.length) changes.push({ type, records });
    // Gone since, by a write the feed did not see (a cascade): a tombstone all the same.
    for (const row of list) if (!found.has(row.record_id)) deleted.push({ type, id: row.record_id, deletedAt: new Date(row.changed_at) });
  }
  // The last page ends at the newest cursor read before it (writes outside the feed raise it too): every row up
  // to it was committed when it was read, as the version row and a transaction's feed rows commit together.
  const last = page.length ? BigInt(page[page.length - 1]!.cursor) : after;
  const cursor = hasMore || last > head ? last : head;
  return { changes, deleted, cursor: cursor.toString(), hasMore };
}
