import { Entity, Enum, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeISO, LocalDate } from '../core/scalars.js';
import { User } from '../accounts/user.entity.js';
import { VersionedEntity } from '../core/database/versioned.entity.js';
import { Day } from '../planning/day.entity.js';
import { TaskCategory } from './task-category.entity.js';
import { TaskStatus } from './task-status.js';

@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'tasks' })
@Index({ properties: ['userId', 'status'] })
// A series has each date once: a restart, two instances or a retried generation never make a second occurrence.
@Unique({ properties: ['seriesId', 'occurrenceDate'] })
// The series a week, a day or a range may hold: the first tasks (they carry the rule) by owner and start.
@Index({ name: 'tasks_series_first_index', expression: 'create index "tasks_series_first_index" on "tasks" ("user_id", "occurrence_date") where "recurrence" is not null' })
export class Task extends VersionedEntity {
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

  @Field(() => String, { nullable: true, description: "When the timebox starts on the task's day, HH:MM in the user's time zone (reminders use it)." })
  @Property({ type: 'string', length: 5, nullable: true })
  startTime?: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: 'RFC 5545 RRULE (`FREQ=…;…`, no DTSTART) of the series this task starts; null on occurrences and single tasks.',
  })
  @Property({ type: 'text', nullable: true })
  recurrence?: string | null = null;

  @Field(() => ID, { nullable: true, description: "The first task of the task's series (its own id on the first); null for a single task." })
  @Property({ type: 'uuid', nullable: true })
  seriesId?: string | null = null;

  @Field(() => LocalDate, { nullable: true, description: 'The date of the series this task is the occurrence of.' })
  @Property({ type: 'date', nullable: true })
  occurrenceDate?: string | null = null;

  @Field(() => [LocalDate], { description: 'On the first task of a series: dates left out of it (EXDATE).' })
  @Property({ type: 'string[]', columnType: 'text[]', default: '{}' })
  recurrenceExceptions: Opt<string[]> = [];

  /**
   * On the first task of a series: the last date the rule can give (UNTIL, or where COUNT ends); null
   * when it never ends. Kept with the rule by the service, so the reads of the series alive in a week
   * (week generation, the agenda) need not evaluate ended rules. Not part of the API.
   */
  @Property({ type: 'date', nullable: true })
  recurrenceEnd?: string | null = null;
}
