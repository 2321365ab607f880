import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../core/context.js';
import { rowCapViolation } from '../core/database/row-caps.js';
import { NotFoundError, RuleViolationError } from '../core/errors.js';
import { recordLiveChange } from '../core/live/change-collector.js';
import { pageWindow, toPage } from '../core/pagination.js';
import type { ServiceScope } from '../core/request-services.js';
import { deleteTrashItems, lockExpired, reinsert } from './trash.queries.js';
import { TrashItem, type TrashSnapshot } from './trash-item.entity.js';
import { entityOfTable, trashKind } from './trash-kinds.js';
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
        await kind.beforeRestore?.(em, userId, snapshot);
        await reinsert(em, snapshot);
        await kind.afterRestore?.(em, userId, snapshot);
      } catch (error) {
        throw refusal(error);
      }
      // The rows came back by raw statements: the live updates (and the change feed) hear them as created.
      for (const { table, row } of snapshot.rows) {
        recordLiveChange(em, userId, { entity: entityOfTable(em, table) ?? table, id: String(row.id), kind: 'created' });
      }
      em.remove(item);
      await em.flush();
      return { kind: item.kind, recordId: item.recordId };
    });
  }

  /** Deletes one entry for good and frees its storage. */
  async deleteForever(userId: string, trashId: string, allow?: AllowKind): Promise<{ id: string; message: string }> {
    const item = await this.em.transactional(async (em) => {
      const found = await em.findOne(TrashItem, { id: trashId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found) throw new NotFoundError('Trash entry');
      allow?.(found.kind);
      em.remove(found);
      return found;
    });
    await this.free([item]);
    return { id: trashId, message: 'Trash entry deleted for good' };
  }

  /** Deletes every entry of the person for good, a chunk per transaction. */
  async empty(userId: string): Promise<number> {
    let deleted = 0;
    for (;;) {
      const items = await this.em.fork().transactional(async (em) => {
        const chunk = await em.find(TrashItem, { userId }, { limit: TRASH_CHUNK, orderBy: { deletedAt: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE });
        await deleteTrashItems(em, chunk.map((item) => item.id));
        return chunk;
      });
      await this.free(items);
      deleted += items.length;
      if (items.length < TRASH_CHUNK) return deleted;
    }
  }

  /**
   * One chunk of the purge: entries whose retention ran out at `now` are deleted, then their storage
   * freed. A crash between the two leaves blobs no row names (freed again by nothing): the blobs go
   * first would be worse (a restorable file without bytes), so the rows go first and freeing is
   * idempotent. Answers how many were purged (a full chunk: call again).
   */
  async purgeChunk(now: Date, limit = TRASH_CHUNK): Promise<number> {
    const items = await this.em.fork().transactional(async (em) => {
      const expired = await lockExpired(em, now, limit);
      await deleteTrashItems(em, expired.map((item) => item.id));
      return expired;
    });
    await this.free(items);
    return items.length;
  }

  private async free(items: { userId: string; kind: string; snapshot: TrashSnapshot }[]): Promise<void> {
    for (const item of items) {
      const kind = trashKind(item.kind);
      if (!kind?.freed) continue;
      try {
        await kind.freed(this.deps, item.userId, item.snapshot);
      } catch (error) {
        this.deps.logger.error({ err: error, kind: item.kind }, 'trash entry deleted but its storage could not be freed');
      }
    }
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

