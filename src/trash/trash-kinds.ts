import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../core/context.js';
import { recordLiveChange } from '../core/live/change-collector.js';
import { snapshotOf } from './trash.queries.js';
import { TrashItem, type TrashSnapshot } from './trash-item.entity.js';

/**
 * One kind of record the trash holds. A domain declares its kind (its `*.trash.ts`) and calls
 * `moveToTrash` in its delete; what restore must redo beyond re-inserting the rows (a balance, a place in
 * a column) is the kind's own, so the hub names no domain.
 */
export interface TrashKind {
  kind: string;
  /** The table of the record (its cascades are found from the catalog). */
  table: string;
  /** Before the rows go back (in the restore's transaction): make room, move the row's place. */
  beforeRestore?(em: EntityManager, userId: string, snapshot: TrashSnapshot): Promise<void>;
  /** After the rows are back (same transaction): redo what the delete undid (a balance). */
  afterRestore?(em: EntityManager, userId: string, snapshot: TrashSnapshot): Promise<void>;
  /** After the item is gone for good (purged, emptied, deleted forever) and committed: free its storage. */
  freed?(deps: AppDeps, userId: string, snapshot: TrashSnapshot): Promise<void>;
}

const kinds = new Map<string, TrashKind>();

export function defineTrashKind(kind: TrashKind): TrashKind {
  kinds.set(kind.kind, kind);
  return kind;
}

export function trashKind(kind: string): TrashKind | undefined {
  return kinds.get(kind);
}

/**
 * Keeps what deleting the user's record `id` will take with it, before the caller deletes it as it always
 * did (in the same transaction, so a rollback keeps neither). Persisted with the caller's flush.
 */
export async function moveToTrash(
  em: EntityManager,
  userId: string,
  kind: TrashKind,
  id: string,
  label: string,
  extra?: Record<string, unknown>,
): Promise<void> {
  const snapshot = await snapshotOf(em, kind.table, userId, id);
  if (extra) snapshot.extra = extra;
  // Callers delete by raw statement (the ORM sees no change set): the live updates and the change feed
  // hear every row the delete takes (its cascades) as deleted, and every reference it nulls as updated.
  for (const { table, row } of snapshot.rows) {
    const entity = entityOfTable(em, table);
    if (entity) recordLiveChange(em, userId, { entity, id: String(row.id), kind: 'deleted' });
  }
  for (const link of snapshot.links) {
    const entity = entityOfTable(em, link.table);
    if (entity) for (const linked of link.ids) recordLiveChange(em, userId, { entity, id: linked, kind: 'updated' });
  }
  em.persist(em.create(TrashItem, { userId, kind: kind.kind, recordId: id, label: label.slice(0, 300), snapshot }));
}

/** The entity class stored in `table` (the name the live updates and the feed use). */
export function entityOfTable(em: EntityManager, table: string): string | undefined {
  for (const meta of Object.values(em.getMetadata().getAll())) if (meta.tableName === table) return meta.className;
  return undefined;
}
