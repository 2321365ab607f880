import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../core/context.js';
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
  em.persist(em.create(TrashItem, { userId, kind: kind.kind, recordId: id, label: label.slice(0, 300), snapshot }));
}
