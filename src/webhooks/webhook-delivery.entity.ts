import { Entity, Enum, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

export enum WebhookDeliveryStatus {
  pending = 'pending',
  success = 'success',
  failed = 'failed',
}
registerEnumType(WebhookDeliveryStatus, {
  name: 'WebhookDeliveryStatus',
  description: 'pending (first attempt or a retry still to come), success (2xx), failed (4xx, or 5 attempts used, or paused).',
});

/**
 * One event sent to one webhook. `payload` is the exact JSON body, stored once, so every retry sends
 * identical bytes under the same `deliveryId` (X-SVC-Delivery-Id).
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'webhook_deliveries' })
@Index({ properties: ['webhookId', 'createdAt'] })
@Index({ properties: ['status', 'nextAttemptAt'] })
export class WebhookDelivery extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @ManyToOne(() => WebhookEndpoint, { mapToPk: true, deleteRule: 'cascade', fieldName: 'webhook_id' })
  webhookId!: string;

  @Field(() => ID, { description: 'Sent as X-SVC-Delivery-Id on every attempt: the idempotency key.' })
  @Unique()
  @Property({ type: 'uuid' })
  deliveryId: Opt<string> = randomUUID();

  @Field(() => String)
  @Property({ type: 'string', length: 64 })
  event!: string;

  @Field(() => String, { description: 'The exact JSON body sent (identical on every attempt).' })
  @Property({ type: 'text' })
  payload!: string;

  @Field(() => WebhookDeliveryStatus)
  @Enum({ items: () => WebhookDeliveryStatus, type: 'string' })
  status: Opt<WebhookDeliveryStatus> = WebhookDeliveryStatus.pending;

  @Field(() => Int, { description: 'Attempts made so far (at most 5).' })
  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  @Field(() => DateTimeISO, { nullable: true, description: 'When the next attempt is due (pending only).' })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  nextAttemptAt?: Date | null = null;

  @Field(() => Int, { nullable: true, description: "The receiver's HTTP status on the last attempt." })
  @Property({ type: 'integer', nullable: true })
  responseStatusCode?: number | null = null;

  @Field(() => String, { nullable: true, description: "The receiver's answer on the last attempt, at most 1000 characters." })
  @Property({ type: 'text', nullable: true })
  responseBody?: string | null = null;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed without an HTTP answer (timeout, network, refused address).' })
  @Property({ type: 'text', nullable: true })
  lastError?: string | null = null;

  @Field(() => DateTimeISO, { nullable: true })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  lastAttemptAt?: Date | null = null;

  @Field(() => DateTimeISO, { nullable: true, description: 'When the delivery reached success or failed.' })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  completedAt?: Date | null = null;
}

/** The history of one delivery: one row per attempt. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'webhook_attempts' })
@Unique({ properties: ['webhookDeliveryId', 'attempt'] })
export class WebhookAttempt extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @ManyToOne(() => WebhookDelivery, { mapToPk: true, deleteRule: 'cascade', fieldName: 'webhook_delivery_id' })
  webhookDeliveryId!: string;

  @Field(() => Int, { description: '1 to 5.' })
  @Property({ type: 'integer' })
  attempt!: number;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  responseStatusCode?: number | null = null;

  @Field(() => String, { nullable: true, description: 'At most 1000 characters.' })
  @Property({ type: 'text', nullable: true })
  responseBody?: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  error?: string | null = null;

  @Field(() => Int, { description: 'How long the attempt took, in milliseconds.' })
  @Property({ type: 'integer' })
  durationMs!: number;
}
