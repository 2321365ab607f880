import { Entity, Enum, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Day } from '../planning/day.entity.js';
import { TaskCategory } from './task-category.entity.js';
import { TaskStatus } from './task-status.js';

@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'tasks' })
@Index({ properties: ['userId', 'status'] })
export class Task extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 500 })
  title!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description?: string | null = null;

  @Field(() => Int, { description: 'Hard maximum duration in minutes (spec rule 4).' })
  @Property({ type: 'integer' })
  timebox!: number;

  @Field(() => TaskStatus)
  @Enum({ items: () => TaskStatus, type: 'string' })
  status: Opt<TaskStatus> = TaskStatus.todo;

  @Field(() => String, { nullable: true, description: 'Required to defer the task (spec rule 3).' })
  @Property({ type: 'text', nullable: true })
  nextStep?: string | null = null;

  @Field(() => ID, { nullable: true })
  @Index()
  @ManyToOne(() => TaskCategory, { mapToPk: true, nullable: true, deleteRule: 'set null', fieldName: 'category_id' })
  categoryId?: string | null = null;

  @Field(() => ID, { nullable: true })
  @Index()
  @ManyToOne(() => Day, { mapToPk: true, nullable: true, deleteRule: 'set null', fieldName: 'day_id' })
  dayId?: string | null = null;

  @Field(() => DateTimeISO, { nullable: true })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  completedAt?: Date | null = null;

  @Field(() => DateTimeISO, { nullable: true })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  deferredAt?: Date | null = null;
}
