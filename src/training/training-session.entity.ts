import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Day } from '../planning/day.entity.js';

/** A gym session of one day, labelled with a weekly split; its exercises and sets hang below it. */
@ObjectType()
@Entity({ tableName: 'training_sessions' })
@Index({ properties: ['userId', 'startTime'] })
export class TrainingSession extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Index()
  @ManyToOne(() => Day, { mapToPk: true, deleteRule: 'cascade', fieldName: 'day_id' })
  dayId!: string;

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
