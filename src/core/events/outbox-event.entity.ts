import { Entity, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { EventName } from './event-catalog.js';

/**
 * Transactional outbox: an event is stored in the same transaction as the change that caused it, and
 * a dispatcher delivers it afterwards, so no event is lost between the write and the send.
 */
@Entity({ tableName: 'event_outbox' })
@Index({ properties: ['dispatchedAt', 'occurredAt'] })
export class OutboxEvent {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'string', length: 64 })
  event!: EventName;

  @Property({ type: 'json' })
  data!: Record<string, unknown>;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  occurredAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  dispatchedAt?: Date | null = null;
}
