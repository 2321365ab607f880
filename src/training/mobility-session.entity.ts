import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Day } from '../planning/day.entity.js';

/** A mobility session; it takes the day's lunch slot (spec rule 2: no cardio that day). */
@ObjectType()
@Entity({ tableName: 'mobility_sessions' })
export class MobilitySession extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Index()
  @ManyToOne(() => Day, { mapToPk: true, deleteRule: 'cascade', fieldName: 'day_id' })
  dayId!: string;

  @Field(() => String, { description: 'What the session worked on, e.g. hips.' })
  @Property({ type: 'string', length: 200 })
  focus!: string;

  @Field(() => Int, { description: 'Minutes.' })
  @Property({ type: 'integer' })
  duration!: number;

  @Field(() => Int, { description: '1-10.' })
  @Property({ type: 'smallint' })
  intensity!: number;
}
