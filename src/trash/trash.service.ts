import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../core/context.js';
import { rowCapViolation } from '../core/database/row-caps.js';
import { NotFoundError, RuleViolationError } from '../core/errors.js';
import { pageWindow, toPage } from '../core/pagination.js';
import type { ServiceScope } from '../core/request-services.js';
import { deleteTrashItems, lockExpired, restoreRows, rewriteTrashedRow, trashedRow, trashedRows } from './trash.queries.js';
import { TrashItem } from './trash-item.entity.js';
import { reportTrashed, trashKind, type StoredObjects, type TrashedRecord } from './trash-kinds.js';
import { recordReleases, release } from './storage-releases.js';
import { retentionDays } from './trash-retention.js';
import type { RestoredEntry, TrashEntry, TrashPage } from './trash.types.js';

const DAY_MS = 86_400_000;
/** Trash entries purged or emptied per transaction: a bounded statement and lock set each. */
export const TRASH_CHUNK = 200;

const FOREIGN_KEY_VIOLATION = '23503';
const UNIQUE_VIOLATION = '23505';

/** Throws when the caller may not act on an entry of `kind` (an assistant outside its grant); before anything is written. */
export type AllowKind = (kind: string) => void;

/** The trash of one person: list, restore, delete forever, empty; and the purge job's chunk. */
export class TrashService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AppDeps,
  ) {}

  static forRequest = (scope: ServiceScope): TrashService => new TrashService(scope.em, scope.deps);

  /** Newest first; only entries of `kinds` when given (an assistant sees the kinds of its grant). */
  async list(userId: string, args: { page?: number; limit?: number }, kinds?: readonly string[]): Promise<TrashPage> {
    const window = pageWindow(args);
    const [items, total] = await this.em.findAndCount(
      TrashItem,
      kinds ? { userId, kind: { $in: [...kinds] } } : { userId },
      { orderBy: { deletedAt: 'desc', id: 'asc' }, limit: window.limit, offset: window.offset, fields: ['kind', 'recordId', 'label', 'deletedAt'] },
    );
    const days = await retentionDays(this.em, userId);
    return toPage(items.map((item) => entryOf(item, days)), total, window);
  }

  /**
   * Puts the rows back with their ids in one transaction, and what the kind's delete undid. Refused
   * (400 VALIDATION_ERROR, `details.rule`) when the record would break a rule: `trash_parent_gone` (its
   * project, column, account, folder, database or day was deleted meanwhile), `trash_conflict` (a record
   * now holds its place, such as a series occurrence made again), or the cap of its parent (a full day).
   */
  async restore(userId: string, trashId: string, allow?: AllowKind): Promise<RestoredEntry> {
    return this.em.transactional(async (em) => {
      const item = await em.findOne(TrashItem, { id: trashId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!item) throw new NotFoundError('Trash entry');
      allow?.(item.kind);
      const kind = trashKind(item.kind);
      if (!kind) throw new RuleViolationError('trash_kind_unknown', `This service cannot restore a ${item.kind}`);
      const snapshot = item.snapshot;
      try {
        // Only the record's own row comes into memory, and only for a kind with restore rules; the rest goes back by SQL.
        const record = kind.beforeRestore || kind.afterRestore ? await this.recordOf(em, item, kind.table) : undefined;
        if (record && kind.beforeRestore) {
          const before = JSON.stringify(record.row);
          await kind.beforeRestore(em, userId, record);
          if (JSON.stringify(record.row) !== before) await rewriteTrashedRow(em, item.id, kind.table, item.recordId, record.row);
        }
        await restoreRows(em, item.id, snapshot);
        if (record && kind.afterRestore) await kind.afterRestore(em, userId, record);
      } catch (error) {
        throw refusal(error);
      }
      // The rows came back by raw statements: the live updates (and the change feed) hear them as created.
      await reportTrashed(em, userId, item.id, snapshot, 'created');
      em.remove(item);
      await em.flush();
      return { kind: item.kind, recordId: item.recordId };
    });
  }

  /** Deletes one entry for good and frees its storage. */
  async deleteForever(userId: string, trashId: string, allow?: AllowKind): Promise<{ id: string; message: string }> {
    const releases = await this.em.transactional(async (em) => {
      const found = await em.findOne(TrashItem, { id: trashId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found) throw new NotFoundError('Trash entry');
      allow?.(found.kind);
      const releases = await this.recordStorage(em, [found], new Date());
      em.remove(found);
      return releases;
    });
    await release(this.deps, releases, new Date());
    return { id: trashId, message: 'Trash entry deleted for good' };
  }

  /** Deletes every entry of the person for good, a chunk per transaction. */
  async empty(userId: string): Promise<number> {
    let deleted = 0;
    for (;;) {
      const now = new Date();
      const { count, releases } = await this.em.fork().transactional(async (em) => {
        const chunk = await em.find(TrashItem, { userId }, { limit: TRASH_CHUNK, orderBy: { deletedAt: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['kind', 'recordId', 'userId'] });
        const recorded = await this.recordStorage(em, chunk, now);
        await deleteTrashItems(em, chunk.map((item) => item.id));
        return { count: chunk.length, releases: recorded };
      });
      await release(this.deps, releases, now);
      deleted += count;
      if (count < TRASH_CHUNK) return deleted;
    }
  }

  /**
   * One chunk of the purge: entries whose retention ran out at `now` are deleted, and the storage they
   * free is recorded in the same transaction; after the commit it is deleted, and what storage refuses
   * (S3 down) is retried by the `trash:release-storage` job until it is gone (storage-releases.ts). The
   * rows go first: the blobs first would be worse (a restorable file without bytes). Answers how many
   * were purged (a full chunk: call again).
   */
  async purgeChunk(now: Date, limit = TRASH_CHUNK): Promise<number> {
    const { count, releases } = await this.em.fork().transactional(async (em) => {
      const expired = await lockExpired(em, now, limit);
      const recorded = await this.recordStorage(em, expired, now);
      await deleteTrashItems(em, expired.map((item) => item.id));
      return { count: expired.length, releases: recorded };
    });
    await release(this.deps, releases, now);
    return count;
  }

  /** The storage the entries free, from their own rows (only kinds that hold storage), recorded for release. */
  private async recordStorage(em: EntityManager, items: { id: string; userId: string; kind: string; recordId: string }[], now: Date) {
    const holding = items.filter((item) => trashKind(item.kind)?.storage);
    if (holding.length === 0) return [];
    const rows = await trashedRows(em, holding.map((item) => ({ id: item.id, table: trashKind(item.kind)!.table, recordId: item.recordId })));
    const objects: StoredObjects[] = [];
    for (const item of holding) {
      const row = rows.get(item.id);
      if (row) objects.push(...trashKind(item.kind)!.storage!(item.userId, row));
    }
    return recordReleases(em, objects, now);
  }

  private async recordOf(em: EntityManager, item: TrashItem, table: string): Promise<TrashedRecord> {
    const row = await trashedRow(em, item.id, table, item.recordId);
    if (!row) throw new RuleViolationError('trash_parent_gone', 'This trash entry holds nothing to restore');
    return { itemId: item.id, row, ...(item.snapshot.extra ? { extra: item.snapshot.extra } : {}) };
  }
}

function entryOf(item: Pick<TrashItem, 'id' | 'kind' | 'recordId' | 'label' | 'deletedAt'>, days: number): TrashEntry {
  return {
    id: item.id,
    kind: item.kind,
    recordId: item.recordId,
    label: item.label,
    deletedAt: item.deletedAt,
    purgeAt: new Date(item.deletedAt.getTime() + days * DAY_MS),
  };
}

function refusal(error: unknown): unknown {
  const cap = rowCapViolation(error);
  if (cap) return cap;
  const code = (error as { code?: string }).code;
  if (code === FOREIGN_KEY_VIOLATION) {
    return new RuleViolationError('trash_parent_gone', 'What this record belonged to (its project, column, account, folder, database or day) is gone: it cannot be restored');
  }
  if (code === UNIQUE_VIOLATION) return new RuleViolationError('trash_conflict', 'Another record now holds the place of this one: it cannot be restored');
  return error;
}

