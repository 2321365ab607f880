import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import { LocalDate } from '../core/scalars.js';
import { DayRecord } from '../planning/day-record.entity.js';
import { Habit } from './habit.entity.js';

/**
 * One logged occurrence of a habit on one of the person's days; a day may hold several (counts add
 * up). `date` repeats the day's date so the state and streak reads select a range of dates per habit
 * from one index without joining the days.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'habit_entries' })
@Index({ properties: ['habitId', 'date'] })
export class HabitEntry extends DayRecord {
  @Field(() => ID)
  @ManyToOne(() => Habit, { mapToPk: true, deleteRule: 'cascade', fieldName: 'habit_id' })
  habitId!: string;

  @Field(() => LocalDate)
  @Property({ type: 'date' })
  date!: string;

  @Field(() => Float, { description: 'CHECK: 1; COUNT: times; DURATION: minutes; AMOUNT: in the unit.' })
  @Property({ type: 'double' })
  value!: number;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  note?: string | null = null;

  /** Not stored: the habit's longest streak before this entry, as `logEntry` answers it (taking the entry back restores it). */
  longestStreakBefore?: number;
}
