import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { DayRecord } from '../planning/day-record.entity.js';

@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'meditation_sessions' })
// The agenda reads a user's sessions by time range.
@Index({ properties: ['userId', 'time'] })
export class MeditationSession extends DayRecord {
  @Field(() => Int, { description: 'Minutes.' })
  @Property({ type: 'integer' })
  duration!: number;

  @Field(() => String, { nullable: true, description: 'Free text, e.g. breathing, body scan.' })
  @Property({ type: 'string', length: 100, nullable: true })
  type?: string | null = null;

  @Field(() => DateTimeISO)
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  time!: Date;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null = null;

  /** Not stored: whether `log` ticked the day's MEDITATION item (it was not ticked before). */
  tickedChecklist?: boolean;
}
