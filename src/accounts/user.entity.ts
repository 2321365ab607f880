import { Entity, Enum, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { BaseEntity } from '../core/database/base.entity.js';
import type { Plan } from '../core/config.js';

@ObjectType('User', { simpleResolvers: true })
@Entity({ tableName: 'users' })
export class User extends BaseEntity {
  @Field(() => String)
  @Unique()
  @Property({ type: 'string', length: 320 })
  email!: string;

  @Property({ type: 'text', hidden: true, lazy: false })
  passwordHash!: string;

  @Field(() => DateTimeISO, { nullable: true })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  emailVerifiedAt?: Date | null = null;

  @Enum({ items: () => ['free', 'pro'], type: 'string' })
  plan: Opt<Plan> = 'free';

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  planExpiresAt?: Date | null = null;
}
