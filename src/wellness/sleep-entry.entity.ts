import { Entity, Property } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { DayRecord } from '../planning/day-record.entity.js';

/** A night's sleep; it also sets the day's sleepHours. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'sleep_entries' })
export class SleepEntry extends DayRecord {
  @Field(() => Float, { description: 'Hours slept.' })
  @Property({ type: 'double' })
  duration!: number;

  @Field(() => DateTimeISO, { nullable: true })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  bedtime?: Date | null = null;

  @Field(() => DateTimeISO, { nullable: true })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  wakeTime?: Date | null = null;

  @Field(() => Int, { nullable: true, description: '1-10.' })
  @Property({ type: 'smallint', nullable: true })
  quality?: number | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null = null;

  /** Not stored: the day's sleepHours this night replaced, as `log` answers it (taking it back restores it). */
  replacedSleepHours?: number | null;
}
