import type { EntityManager } from '@mikro-orm/postgresql';
import { reportRows } from '../core/live/reported-rows.queries.js';
import type { LiveChangeKind } from '../core/live/live-change.js';
import { snapshotOf, trashedReach, type AlsoRows, type UndeclaredReference } from './trash.queries.js';
import { TrashItem, type TrashSnapshot } from './trash-item.entity.js';

/** What a kind's restore rules see of a trashed record: its own row (numbers as text) and its kind's extra. */
export interface TrashedRecord {
  itemId: string;
  /** The record's row as it was deleted; a `beforeRestore` may change it (a card's place): it is restored so. */
  row: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

/** Stored objects to delete once a trashed record is gone for good: everything below `prefix` on `adapter`. */
export interface StoredObjects {
  adapter: string;
  prefix: string;
}

/**
 * One kind of record the trash holds. A domain declares its kind (its `*.trash.ts`) and calls
 * `moveToTrash` in its delete; what restore must redo beyond re-inserting the rows (a balance, a place in
 * a column) is the kind's own, so the hub names no domain.
 */
export interface TrashKind {
  kind: string;
  /** The table of the record (its cascades are found from the catalog). */
  table: string;
  /**
   * References to the record that no foreign key declares (the catalog cannot find them), which the
   * kind's delete clears itself: kept in `trash_links` by SQL like the nulled ones and set back on restore.
   */
  references?: UndeclaredReference[];
  /** Before the rows go back (in the restore's transaction): make room, move the row's place. */
  beforeRestore?(em: EntityManager, userId: string, record: TrashedRecord): Promise<void>;
  /** After the rows are back (same transaction): redo what the delete undid (a balance). */
  afterRestore?(em: EntityManager, userId: string, record: TrashedRecord): Promise<void>;
  /**
   * The storage to free once the entry is gone for good (purged, emptied, deleted forever): recorded in
   * that transaction and deleted after it, retried until storage answers (docs/trash.md).
   */
  storage?(userId: string, row: Record<string, unknown>): StoredObjects[];
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
 * Keeps what deleting the user's record `id` (and the rows of its table `also` names: a series' later
 * occurrences) will take with it, before the caller deletes it as it always did, in the same
 * transaction, so a rollback keeps neither. The entry is persisted with the caller's flush.
 */
export async function moveToTrash(
  em: EntityManager,
  userId: string,
  kind: TrashKind,
  id: string,
  label: string,
  extra?: Record<string, unknown>,
  also?: AlsoRows,
): Promise<void> {
  if (!em.getTransactionContext()) throw new Error('moveToTrash runs in the transaction of the delete');
  const item = em.create(TrashItem, { userId, kind: kind.kind, recordId: id, label: label.slice(0, 300), snapshot: { tables: [], links: [] } });
  const snapshot = await snapshotOf(em, item.id, kind.table, userId, id, also, kind.references);
  if (extra) snapshot.extra = extra;
  item.snapshot = snapshot;
  // Callers delete by raw statement (the ORM sees no change set): the live updates and the change feed
  // hear every row the delete takes (its cascades) as deleted, and every reference it nulls as updated.
  await reportTrashed(em, userId, item.id, snapshot, 'deleted');
  em.persist(item);
}

/**
 * Tells the live updates and the change feed about the rows kept under `itemId` (`kind`: deleted by the
 * trash, created by a restore) and their nulled references (updated), the way every raw delete does
 * (`reportRows`): at most a batch's worth held in memory, past it "everything" on the live updates and
 * the rest of the rows fed by SQL from the database's copy.
 */
export async function reportTrashed(em: EntityManager, userId: string, itemId: string, snapshot: TrashSnapshot, kind: LiveChangeKind): Promise<void> {
  await reportRows(em, userId, trashedReach(itemId, snapshot, kind));
}
