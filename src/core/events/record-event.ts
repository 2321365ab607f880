import { QueryFlag } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventName, EventPayloads } from './event-catalog.js';
import { FactDispatcher, queueFact, type Fact } from './fact-dispatcher.js';
import { OutboxEvent } from './outbox-event.entity.js';

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
  const row = em.create(OutboxEvent, { userId, event, data: data as Record<string, unknown>, occurredAt, dispatchedAt: null });
  em.persist(row);
  queueFact(em, { name: event, userId, data, occurredAt } as Fact);
  return row;
}

/**
 * Writes an event at once with one INSERT (MikroORM's `em.insert`: no unit of work, no change-set
 * computation) — for append-only writes inside a transaction whose change is also inserted directly.
 * Same row, same transaction rule and the same in-process fact as `recordEvent`: call it inside the
 * transaction of the change.
 */
export async function insertEvent<E extends EventName>(
  em: EntityManager,
  userId: string,
  event: E,
  data: EventPayloads[E],
  occurredAt = new Date(),
): Promise<OutboxEvent> {
  const row = em.create(OutboxEvent, { userId, event, data: data as Record<string, unknown>, occurredAt, dispatchedAt: null }, { persist: false });
  await em.insert(row);
  queueFact(em, { name: event, userId, data, occurredAt } as Fact);
  return row;
}

/**
 * Writes a new append-only record and its event: both rows in ONE statement (a data-modifying CTE, atomic
 * without BEGIN and COMMIT, two round trips fewer than a transaction) when nothing in-process reacts to
 * the event; otherwise, or inside the caller's transaction, the record and `insertEvent` in a transaction.
 * The rows are those `em.insert` would write (MikroORM's own conversion of the entities), so the event
 * is the same row either way.
 */
export async function insertWithEvent<E extends EventName>(
  em: EntityManager,
  record: object,
  userId: string,
  event: E,
  data: EventPayloads[E],
  occurredAt = new Date(),
): Promise<void> {
  if (em.isInTransaction() || FactDispatcher.of(em)?.reactsTo(event)) {
    await em.transactional(async (trx) => {
      await trx.insert(record);
      await insertEvent(trx, userId, event, data, occurredAt);
    });
    return;
  }
  const row = em.create(OutboxEvent, { userId, event, data: data as Record<string, unknown>, occurredAt, dispatchedAt: null }, { persist: false });
  const statement = insertQuery(em, row).with('change', insertQuery(em, record));
  await em.execute(statement);
}

/** The INSERT `em.insert(entity)` would send, as a knex query to compose (values converted once, by the comparator). */
function insertQuery(em: EntityManager, entity: object) {
  const payload = em.getComparator().prepareEntity(entity);
  return em
    .createQueryBuilder(entity.constructor.name)
    .unsetFlag(QueryFlag.CONVERT_CUSTOM_TYPES)
    .insert(payload as never)
    .getKnexQuery();
}
