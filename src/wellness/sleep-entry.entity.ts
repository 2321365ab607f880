import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Day } from '../planning/day.entity.js';

/** A night's sleep; it also sets the day's sleepHours. */
@ObjectType()
@Entity({ tableName: 'sleep_entries' })
export class SleepEntry extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Index()
  @ManyToOne(() => Day, { mapToPk: true, deleteRule: 'cascade', fieldName: 'day_id' })
  dayId!: string;

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
}
