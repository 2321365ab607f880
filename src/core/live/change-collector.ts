import { ChangeSetType, type ChangeSet, type EventSubscriber, type FlushEventArgs, type TransactionEventArgs } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { TransactionQueue } from '../events/transaction-queue.js';
import type { LiveBus } from './live-bus.js';
import { writeFeed, type InFeed } from '../database/change-feed.js';
import type { LiveChange, LiveChangeKind, LiveScope } from './live-change.js';

/** A change and whose record it is (null: the record names no owner; the transaction's one owner takes it). */
interface OwnedChange extends LiveChange {
  userId: string | null;
}

const pending = new TransactionQueue<OwnedChange>();

/** More changes than this in one transaction (an import) go out as one "refetch everything" change. */
export const MAX_CHANGES_PER_BATCH = 200;
export const EVERYTHING: LiveChange = { entity: '*', id: '*', kind: 'updated' };

/**
 * Records a change written without the unit of work (a raw statement): the ORM cannot see it, so the
 * writer says what it changed, like recording a fact. It goes out if and when the transaction commits.
 */
export function recordLiveChange(em: EntityManager, userId: string, change: LiveChange): void {
  pending.push(em, { ...change, userId });
}

const KINDS: Partial<Record<ChangeSetType, LiveChangeKind>> = {
  [ChangeSetType.CREATE]: 'created',
  [ChangeSetType.UPDATE]: 'updated',
  [ChangeSetType.UPDATE_EARLY]: 'updated',
  [ChangeSetType.DELETE]: 'deleted',
  [ChangeSetType.DELETE_EARLY]: 'deleted',
};

/** What a change belongs to (`LiveChange.scope`), or undefined when it cannot say. */
export type ScopeOf = (changeSet: ChangeSet<object>) => LiveScope | undefined;

/** The ids of one kind of record a change belongs to, or undefined when it cannot say. */
export type IdsOf = (changeSet: ChangeSet<object>) => string[] | undefined;

/** One scope of every kind the domains declare (`{ day: daysOfChange, … }`); a kind that cannot say is left out. */
export function scopeOfKinds(kinds: Readonly<Record<string, IdsOf>>): ScopeOf {
  return (changeSet) => {
    const scope: Record<string, string[]> = {};
    for (const [kind, idsOf] of Object.entries(kinds)) {
      const ids = idsOf(changeSet);
      if (ids) scope[kind] = ids;
    }
    return Object.keys(scope).length > 0 ? scope : undefined;
  };
}

/**
 * The record of `className` a changed record belongs to, before and after the change: itself, or the
 * one its `property` relation names (a moved record belongs to both). Undefined when the record has no
 * such relation or it is not loaded (a removed reference): then it may belong to any.
 */
export function ownerRecordIds(className: string, property: string): IdsOf {
  return (changeSet) => {
    if (changeSet.meta.className === className) {
      const id = idOf((changeSet.entity as { id?: unknown }).id) ?? changeSet.getSerializedPrimaryKey();
      return id ? [id] : undefined;
    }
    if (!changeSet.meta.properties[property as never]) return undefined;
    const now = (changeSet.entity as Record<string, unknown>)[property];
    if (now === undefined) return undefined;
    const ids = new Set<string>();
    const add = (value: unknown) => {
      const id = idOf(value);
      if (id) ids.add(id);
    };
    add(now);
    if (changeSet.originalEntity) {
      const before = (changeSet.originalEntity as Record<string, unknown>)[property];
      if (before === undefined) return undefined;
      add(before);
    }
    return [...ids];
  };
}

/** The id of a relation held as a primary key, a reference or an entity. */
export function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const id = (value as { id?: unknown }).id;
    if (typeof id === 'string') return id;
  }
  return null;
}

/** The person a record belongs to, when it says so itself: the User row, a `userId` or a `user` relation. */
function ownerOf(className: string, entity: Record<string, unknown>): string | null {
  if (className === 'User') return idOf(entity.id);
  return idOf(entity.userId) ?? idOf(entity.user);
}

/**
 * Sends each committed transaction's changes to the live bus, never a rolled-back one's: a MikroORM
 * subscriber that reads every flush's change sets (entity, id, kind) and holds them until the
 * transaction commits, like the fact dispatcher holds facts. A record that names no owner (a day's
 * perimeter row) belongs to the transaction's owner when the transaction touched exactly one person's
 * records, which is every request's write; otherwise it is left out. Writes by raw statement are
 * recorded by their writers (`recordLiveChange`); autocommitted statements outside any transaction are
 * not seen.
 */
export class LiveChangeCollector implements EventSubscriber {
  /** The collector registered on an entity manager's ORM, if any. */
  static of(em: EntityManager): LiveChangeCollector | undefined {
    for (const subscriber of em.getEventManager().getSubscribers()) if (subscriber instanceof LiveChangeCollector) return subscriber;
    return undefined;
  }

  /** Each committing transaction's feed cursors by person, from `beforeTransactionCommit` to the batches. */
  private readonly cursors = new WeakMap<object, Map<string, string>>();

  constructor(
    private readonly bus: () => LiveBus | undefined,
    private readonly scopeOf: ScopeOf = () => undefined,
    /** Which changes the change feed records (docs/sync.md); none when not given. */
    readonly inFeed: InFeed = () => false,
  ) {}

  /** Sends changes a statement already committed on its own (outside any transaction), with its feed cursor if it wrote one. */
  committed(userId: string, changes: LiveChange[], cursor?: string): void {
    this.bus()?.publish({ userId, changes, committedAt: Date.now(), ...(cursor ? { cursor } : {}) });
  }

  /**
   * The change feed: the transaction's changes, every row (no "*" past a batch's size), written by the
   * transaction itself just before its COMMIT, so they commit (or roll back) with the data. Persons in
   * sorted order: two transactions touching the same two persons take their version rows alike.
   */
  async beforeTransactionCommit(args: TransactionEventArgs): Promise<void> {
    const changes = pending.peek(args);
    if (changes.length === 0 || !args.transaction) return;
    const owners = byOwner(changes, Infinity, this.inFeed);
    if (owners.size === 0) return;
    const cursors = new Map<string, string>();
    for (const owner of [...owners.keys()].sort()) {
      const mine = owners.get(owner)!;
      // An account deleted in this transaction leaves no feed behind (its rows go with it).
      if (mine.some((c) => c.entity === 'User' && c.id === owner && c.kind === 'deleted')) continue;
      cursors.set(owner, await writeFeed(args.em as EntityManager, args.transaction, owner, mine));
    }
    this.cursors.set(args.transaction, cursors);
  }

  onFlush(args: FlushEventArgs): void {
    const em = args.em as EntityManager;
    for (const changeSet of args.uow.getChangeSets()) {
      const kind = KINDS[changeSet.type];
      const id = idOf((changeSet.entity as { id?: unknown }).id) ?? changeSet.getSerializedPrimaryKey();
      if (!kind || !id) continue;
      const className = changeSet.meta.className;
      const scope = this.scopeOf(changeSet as ChangeSet<object>);
      pending.push(em, { entity: className, id, kind, userId: ownerOf(className, changeSet.entity as Record<string, unknown>), ...(scope ? { scope } : {}) });
    }
  }

  afterTransactionCommit(args: TransactionEventArgs): void {
    const changes = pending.take(args);
    const cursors = args.transaction ? this.cursors.get(args.transaction) : undefined;
    const bus = this.bus();
    if (changes.length === 0 || !bus) return;
    const committedAt = Date.now();
    for (const [userId, mine] of byOwner(changes)) {
      const cursor = cursors?.get(userId);
      bus.publish({ userId, changes: mine, committedAt, ...(cursor ? { cursor } : {}) });
    }
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    pending.take(args);
  }
}

/** A record changed twice belongs to what either change named; a kind is unknown if either left it out. */
function foldedScope(earlier: LiveChange | undefined, change: LiveChange): Pick<LiveChange, 'scope'> {
  if (!earlier) return change.scope ? { scope: change.scope } : {};
  if (!earlier.scope || !change.scope) return {};
  const scope: Record<string, string[]> = {};
  for (const [kind, ids] of Object.entries(change.scope)) {
    const before = earlier.scope[kind];
    if (before) scope[kind] = [...new Set([...before, ...ids])];
  }
  return Object.keys(scope).length > 0 ? { scope } : {};
}

/**
 * The changes grouped by owner, in writing order, repeated changes of a record folded into the latest;
 * more than `cap` of one owner become one "*" change; `keep` leaves others out.
 */
function byOwner(changes: readonly OwnedChange[], cap = MAX_CHANGES_PER_BATCH, keep: (change: LiveChange) => boolean = () => true): Map<string, LiveChange[]> {
  const owners = new Set(changes.map((c) => c.userId).filter((id): id is string => id !== null));
  const soleOwner = owners.size === 1 ? [...owners][0] : null;
  const grouped = new Map<string, Map<string, LiveChange>>();
  for (const { userId, ...change } of changes) {
    const owner = userId ?? soleOwner;
    if (!owner || !keep(change)) continue;
    let mine = grouped.get(owner);
    if (!mine) grouped.set(owner, (mine = new Map()));
    const key = `${change.entity}:${change.id}`;
    const earlier = mine.get(key);
    // Created then updated is still "created"; anything then deleted is "deleted".
    const kind = earlier?.kind === 'created' && change.kind === 'updated' ? 'created' : change.kind;
    mine.delete(key); // re-inserted last: the order is that of each record's latest change
    mine.set(key, { entity: change.entity, id: change.id, kind, ...foldedScope(earlier, change) });
  }
  const result = new Map<string, LiveChange[]>();
  for (const [owner, mine] of grouped) result.set(owner, mine.size > cap ? [EVERYTHING] : [...mine.values()]);
  return result;
}
