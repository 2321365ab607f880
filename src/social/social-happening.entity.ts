import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeISO, UUID } from '../core/scalars.js';
import { DayRecord } from '../planning/day-record.entity.js';

/** Time spent with people on one of the user's days (a meeting, a dinner, a call). */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'social_happenings' })
@Index({ properties: ['userId', 'startTime'] })
export class SocialHappening extends DayRecord {
  @Field(() => String)
  @Property({ type: 'string', length: 300 })
  title!: string;

  @Field(() => DateTimeISO)
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  startTime!: Date;

  @Field(() => DateTimeISO, { description: 'After startTime.' })
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  endTime!: Date;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 300, nullable: true })
  location?: string | null = null;

  /** Ids of the user's people (a jsonb array; a deleted person is taken out of it). */
  @Field(() => [UUID])
  @Property({ type: 'json' })
  guestIds: string[] = [];

  /** Ids the client keeps (items brought, shared); never resolved here. */
  @Field(() => [UUID])
  @Property({ type: 'json' })
  itemIds: string[] = [];
}
