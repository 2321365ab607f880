import { QueryFlag, ReferenceKind } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventName, EventPayloads } from './event-catalog.js';
import { FactDispatcher, queueFact, type Fact } from './fact-dispatcher.js';
import { OutboxEvent } from './outbox-event.entity.js';
import { insertRow } from '../database/prepared-insert.js';
import { runStatement } from '../database/read-batch.js';
import { LiveChangeCollector, recordLiveChange } from '../live/change-collector.js';
import { feedSelect, feedValues, writeFeed } from '../database/change-feed.js';
import type { LiveChangeKind } from '../live/live-change.js';

/**
 * Queues an event for the subject's owner in the caller's unit of work; it is written by the same
 * flush (one transaction) as the change it describes. In-process reactors (fact-dispatcher.ts) see
 * it in that transaction too.
 */
export function recordEvent<E extends EventName>(
  em: EntityManager,
  userId: string,
  event: E,
  data: EventPayloads[E],
  occurredAt = new Date(),
): OutboxEvent {
  const row = outboxRow(em, userId, event, data, occurredAt);
  em.persist(row);
  queueFact(em, { name: event, userId, data, occurredAt } as Fact);
  return row;
}

/** The outbox row of an event, not yet persisted. */
function outboxRow<E extends EventName>(em: EntityManager, userId: string, event: E, data: EventPayloads[E], occurredAt: Date): OutboxEvent {
  return em.create(OutboxEvent, { userId, event, data: data as Record<string, unknown>, occurredAt, dispatchedAt: null }, { persist: false });
}

/**
 * Writes a new append-only record and its event: both rows in ONE statement (a data-modifying CTE,
 * atomic without BEGIN and COMMIT, two round trips fewer than a transaction) when nothing in-process
 * reacts to the event; otherwise, or inside the caller's transaction, the two INSERTs in a transaction
 * with the fact queued for the reactors. The rows are those `em.insert` would write (MikroORM's own
 * conversion of the entities), so the event is the same row either way.
 */
export async function insertWithEvent<E extends EventName>(
  em: EntityManager,
  record: object,
  userId: string,
  event: E,
  data: EventPayloads[E],
  occurredAt = new Date(),
): Promise<void> {
  const row = outboxRow(em, userId, event, data, occurredAt);
  if (em.isInTransaction() || FactDispatcher.of(em)?.reactsTo(event)) {
    // MikroORM's `em.insert` (no unit of work) for both rows, and the fact for the reactors; inside the
    // caller's transaction as they are (no savepoint), else in a transaction of their own.
    const write = async (trx: EntityManager) => {
      await trx.insert(record);
      await trx.insert(row);
      queueFact(trx, { name: event, userId, data, occurredAt } as Fact);
      recordLiveChange(trx, userId, created(record));
    };
    await (em.isInTransaction() ? write(em) : em.transactional(write));
    return;
  }
  // One statement, committed on its own: no transaction event will carry the change, so the statement
  // writes its change-feed row itself (docs/sync.md) and the collector is told the cursor.
  const collector = LiveChangeCollector.of(em);
  const change = created(record);
  const feed = collector?.inFeed(change) ? feedValues(userId, change) : null;
  const cursor = await insertBoth(em, record, row, feed);
  collector?.committed(userId, [change], cursor);
}

/** `em.insert` bypasses the unit of work the live collector reads: the new record is told directly. */
function created(record: object) {
  return { entity: record.constructor.name, id: String((record as { id?: unknown }).id), kind: 'created' as const };
}

/** The CTE's text by its two INSERT targets: built once per writer, sent as a prepared statement. */
const cteTexts = new Map<string, string>();

/**
 * The record and its outbox row in one statement: `with "change" as (insert …) insert …`; with `feed`
 * (the change-feed row's values), `… "event" as (insert …) select lp_record_changes(…)`, answering its cursor.
 */
async function insertBoth(em: EntityManager, record: object, row: OutboxEvent, feed: string[] | null): Promise<string | undefined> {
  const change = insertRow(em, record);
  const event = insertRow(em, row);
  if (!change || !event) {
    // Without a prepared text (never for the entities written here): the two inserts, then the feed row, in a transaction.
    if (!feed) {
      await em.execute(insertQuery(em, row).with('change', insertQuery(em, record)));
      return undefined;
    }
    return em.transactional(async (trx) => {
      await trx.execute(insertQuery(trx, row).with('change', insertQuery(trx, record)));
      const [owner, entity, id, kind] = feed;
      return writeFeed(trx, trx.getTransactionContext(), owner!, [{ entity: entity!, id: id!, kind: kind as LiveChangeKind }]);
    });
  }
  const parents = feed ? parentLocks(em, record) : { names: [], values: [] };
  const key = `${change.target}\u0000${event.target}\u0000${feed ? 'feed' : ''}\u0000${parents.names.join(',')}`;
  let text = cteTexts.get(key);
  if (text === undefined) {
    const n = change.values.length + event.values.length;
    text = feed
      ? `with "change" as (insert into ${change.target} values ${change.placeholders(1)}), "event" as (insert into ${event.target} values ${event.placeholders(change.values.length + 1)}) ${feedSelect(n + 1)}${parentsFrom(parents.names, n + FEED_VALUES + 1)}`
      : `with "change" as (insert into ${change.target} values ${change.placeholders(1)}) insert into ${event.target} values ${event.placeholders(change.values.length + 1)}`;
    cteTexts.set(key, text);
  }
  const rows = await runStatement(em.getConnection().getKnex(), text, [...change.values, ...event.values, ...(feed ?? []), ...parents.values]);
  // No row: a parent is gone (the statement then fails on its foreign key; nothing was written).
  return feed ? (rows[0] as { cursor?: string } | undefined)?.cursor : undefined;
}

/** The change-feed row's values after the record's and the event's (feedValues: owner, entity, id, kind). */
const FEED_VALUES = 4;

/**
 * The rows the record's foreign keys name (its day, …; not its owner), to lock before the change-feed row
 * takes the person's version row. A foreign key's own check comes at the statement's end: a transaction
 * deleting that parent (a week and its days) takes the version row at its commit, and each would wait on
 * the other (a deadlock). Locked first (FOR KEY SHARE, what the check takes anyway), the write waits for
 * such a deletion before it touches the version row, then finds the parent gone and fails whole.
 */
function parentLocks(em: EntityManager, record: object): { names: string[]; values: unknown[] } {
  const meta = em.getMetadata().get(record.constructor.name);
  const names: string[] = [];
  const values: unknown[] = [];
  for (const prop of meta.relations) {
    if (prop.kind !== ReferenceKind.MANY_TO_ONE || prop.name === 'userId') continue;
    const value = (record as Record<string, unknown>)[prop.name];
    const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : value;
    if (id === null || id === undefined || prop.targetMeta?.primaryKeys.length !== 1) continue;
    names.push(`${quoteName(prop.targetMeta.tableName)}.${quoteName(prop.targetMeta.properties[prop.targetMeta.primaryKeys[0] as never].fieldNames[0]!)}`);
    values.push(id);
  }
  return { names, values };
}

/** ` from (select 1 from <table> where <pk> = $k for key share) p0, …` for each parent, numbered from `first`. */
function parentsFrom(names: readonly string[], first: number): string {
  if (!names.length) return '';
  return ` from ${names
    .map((name, i) => {
      const [table, column] = name.split('.') as [string, string];
      return `(select 1 from ${table} where ${column} = $${first + i} for key share) p${i}`;
    })
    .join(', ')}`;
}

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The INSERT `em.insert(entity)` would send, as a knex query to compose (values converted once, by the comparator). */
function insertQuery(em: EntityManager, entity: object) {
  const payload = em.getComparator().prepareEntity(entity);
  return em
    .createQueryBuilder(entity.constructor.name)
    .unsetFlag(QueryFlag.CONVERT_CUSTOM_TYPES)
    .insert(payload as never)
    .getKnexQuery();
}
