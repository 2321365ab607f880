import { Entity, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { DateTimeISO, LocalDate } from '../core/scalars.js';
import { Week } from './week.entity.js';

@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'days' })
@Unique({ properties: ['userId', 'date'] })
export class Day extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Index()
  @ManyToOne(() => Week, { mapToPk: true, deleteRule: 'cascade', fieldName: 'week_id' })
  weekId!: string;

  @Field(() => LocalDate)
  @Property({ type: 'date' })
  date!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null = null;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  minimumMode: Opt<boolean> = false;

  @Field(() => Int, { nullable: true, description: '1-10' })
  @Property({ type: 'smallint', nullable: true })
  mood?: number | null = null;

  @Field(() => Int, { nullable: true, description: '1-10' })
  @Property({ type: 'smallint', nullable: true })
  energy?: number | null = null;

  @Field(() => Float, { nullable: true, description: 'Hours slept.' })
  @Property({ type: 'double', nullable: true })
  sleepHours?: number | null = null;

  @Field(() => DateTimeISO, { nullable: true, description: 'When every required checklist item was last done.' })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  completedAt?: Date | null = null;
}
