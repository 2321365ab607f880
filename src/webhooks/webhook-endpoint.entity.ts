import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/**
 * A user's webhook: an HTTPS URL that receives the events it subscribes to, signed with its secret.
 * The secret is kept encrypted (AES-256-GCM, key derived from the JWT secret, see webhook-secret.ts);
 * only `secretPrefix` is ever shown after creation.
 */
@ObjectType('Webhook', { simpleResolvers: true })
@Entity({ tableName: 'webhook_endpoints' })
@Index({ properties: ['userId', 'createdAt'] })
export class WebhookEndpoint extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String, { description: 'HTTPS URL the deliveries are POSTed to.' })
  @Property({ type: 'text' })
  url!: string;

  @Field(() => [String], { description: 'Event names this webhook receives.' })
  @Property({ type: 'string[]', columnType: 'text[]' })
  events!: string[];

  /** `whsec_…` encrypted at rest (never exposed). */
  @Property({ type: 'text', hidden: true, lazy: false })
  secretEncrypted!: string;

  @Field(() => String, { description: 'The first characters of the signing secret.' })
  @Property({ type: 'string', length: 32 })
  secretPrefix!: string;

  @Field(() => Boolean, { description: 'false = paused: no deliveries and no retries.' })
  @Property({ type: 'boolean' })
  active: Opt<boolean> = true;
}
