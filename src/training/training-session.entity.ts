import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { DayRecord } from '../planning/day-record.entity.js';

/** A gym session of one day, labelled with a weekly split; its exercises and sets hang below it. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'training_sessions' })
@Index({ properties: ['userId', 'startTime'] })
export class TrainingSession extends DayRecord {
  @Field(() => String, { description: 'A weekly split label, e.g. Push.' })
  @Property({ type: 'string', length: 100 })
  split!: string;

  @Field(() => DateTimeISO)
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  startTime!: Date;

  @Field(() => DateTimeISO, { nullable: true })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  endTime?: Date | null = null;

  @Field(() => Int, { nullable: true, description: 'Session rating of perceived exertion, 1-10.' })
  @Property({ type: 'smallint', nullable: true })
  sessionRPE?: number | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null = null;
}
