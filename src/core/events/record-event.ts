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
