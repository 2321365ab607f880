import { Entity, Enum, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { VersionedEntity } from '../core/database/versioned.entity.js';
import { DateTimeISO, LocalDate } from '../core/scalars.js';
import { HabitKind, HabitSchedule } from './habit-enums.js';

/**
 * A habit of one's own (issue 37): what it measures (`kind`, `target` per due day, `unit`), when it is
 * due (`schedule`), and its place in the list. Its entries and day marks go with it.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'habits' })
@Index({ properties: ['userId', 'position'] })
@Index({
  name: 'habits_running_streak_index',
  expression: 'create index "habits_running_streak_index" on "habits" ("streak_computed_on") where "current_streak" > 0 and "archived_at" is null',
})
export class Habit extends VersionedEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => String, { nullable: true, description: 'An emoji or an icon name.' })
  @Property({ type: 'string', length: 32, nullable: true })
  icon?: string | null = null;

  @Field(() => String, { nullable: true, description: '#RRGGBB.' })
  @Property({ type: 'string', length: 7, nullable: true })
  colour?: string | null = null;

  @Field(() => HabitKind)
  @Enum({ items: () => HabitKind, type: 'string' })
  kind!: HabitKind;

  @Field(() => String, { nullable: true, description: 'AMOUNT (required) and COUNT (optional): what is counted, e.g. km.' })
  @Property({ type: 'string', length: 20, nullable: true })
  unit?: string | null = null;

  @Field(() => Float, { description: "What one due day's entries must add up to (CHECK: 1; DURATION: minutes)." })
  @Property({ type: 'double' })
  target!: number;

  @Field(() => HabitSchedule)
  @Enum({ items: () => HabitSchedule, type: 'string' })
  schedule!: HabitSchedule;

  @Field(() => [Int], { description: 'WEEKDAYS: ISO weekdays, Monday 1 … Sunday 7; empty otherwise.' })
  @Property({ type: 'json' })
  weekdays: Opt<number[]> = [];

  @Field(() => Int, { nullable: true, description: 'TIMES_PER_WEEK (1-7) and TIMES_PER_MONTH (1-28): the quota of days.' })
  @Property({ type: 'smallint', nullable: true })
  timesPerPeriod?: number | null = null;

  @Field(() => String, { nullable: true, description: 'RRULE: an RFC 5545 rule (FREQ=…;…), read from startDate.' })
  @Property({ type: 'string', length: 500, nullable: true })
  recurrence?: string | null = null;

  @Field(() => LocalDate, { description: "The habit's first day (the rule's DTSTART); streaks count from it." })
  @Property({ type: 'date' })
  startDate!: string;

  @Field(() => Int, { description: 'Order in the list, from 0.' })
  @Property({ type: 'integer' })
  position: Opt<number> = 0;

  @Field(() => DateTimeISO, { nullable: true, description: 'Set while archived: not due, not on the day and week reads.' })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  archivedAt?: Date | null = null;

  /** The streak last computed at a write: `habit_streak_updated` fires when a write changes it. */
  @Property({ type: 'integer' })
  currentStreak: Opt<number> = 0;

  /** The longest streak ever computed (kept beyond the history a streak read walks). */
  @Property({ type: 'integer' })
  longestStreak: Opt<number> = 0;

  /** The person's date the stored streak was computed on (a write changing no day's done-ness that day keeps it). */
  @Property({ type: 'date', nullable: true })
  streakComputedOn?: string | null = null;
}
