import { Entity, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/**
 * A Public API key. Only the SHA-256 of the full key is stored (`keyHash`, unique: the one lookup a
 * request makes); `keyPrefix` is the first characters, shown so the user can tell keys apart.
 */
@ObjectType('ApiKey', { simpleResolvers: true, description: 'A Public API key (the full key is shown only when created or rotated).' })
@Entity({ tableName: 'api_keys' })
export class ApiKey extends BaseEntity {
  @Index()
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => String, { description: 'The first characters of the key, e.g. svc_AbC12xYz.' })
  @Property({ type: 'string', length: 16 })
  keyPrefix!: string;

  @Unique()
  @Property({ type: 'string', length: 64, hidden: true })
  keyHash!: string;

  @Field(() => DateTimeISO, { nullable: true, description: 'Last request made with the key (updated at most once a minute).' })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  lastUsedAt?: Date | null = null;

  @Field(() => DateTimeISO, { nullable: true, description: 'After this instant the key answers 401.' })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  expiresAt?: Date | null = null;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  revoked: Opt<boolean> = false;

  @Field(() => DateTimeISO, { nullable: true })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  revokedAt?: Date | null = null;
}
