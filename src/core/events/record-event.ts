import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventName, EventPayloads } from './event-catalog.js';
import { queueFact, type Fact } from './fact-dispatcher.js';
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
