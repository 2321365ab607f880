import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Day } from '../planning/day.entity.js';

@ObjectType()
@Entity({ tableName: 'meditation_sessions' })
export class MeditationSession extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Index()
  @ManyToOne(() => Day, { mapToPk: true, deleteRule: 'cascade', fieldName: 'day_id' })
  dayId!: string;

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
}
