import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { DateTimeISO } from '../core/scalars.js';

/**
 * A browser's Web Push subscription (the Push API's PushSubscription): its push service endpoint and
 * the keys its payloads are encrypted to (RFC 8291). One row per user and endpoint; registering the
 * same endpoint again replaces its keys. A push service answering 404 or 410 removes it.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'push_subscriptions' })
@Unique({ properties: ['userId', 'endpoint'] })
export class PushSubscription extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String, { description: "The push service's URL for this browser." })
  @Property({ type: 'text' })
  endpoint!: string;

  /** The browser's P-256 public key (base64url, 65 bytes). */
  @Property({ type: 'string', length: 100, hidden: true })
  p256dh!: string;

  /** The browser's authentication secret (base64url, 16 bytes). */
  @Property({ type: 'string', length: 50, hidden: true })
  auth!: string;

  @Field(() => DateTimeISO, { nullable: true, description: 'When the browser said the subscription ends (expirationTime), if it did.' })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  expiresAt?: Date | null = null;
}
