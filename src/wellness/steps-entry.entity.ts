import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Day } from '../planning/day.entity.js';

/** A step count reported for a day (e.g. by a phone or watch). */
@ObjectType()
@Entity({ tableName: 'steps_entries' })
export class StepsEntry extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Index()
  @ManyToOne(() => Day, { mapToPk: true, deleteRule: 'cascade', fieldName: 'day_id' })
  dayId!: string;

  @Field(() => Int)
  @Property({ type: 'integer' })
  steps!: number;

  @Field(() => DateTimeISO)
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  time!: Date;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null = null;
}
