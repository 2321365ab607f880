import { Entity, Enum, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { LocalDate } from '../core/scalars.js';
import { DayRecord } from '../planning/day-record.entity.js';
import { HabitDayMark } from './habit-enums.js';
import { Habit } from './habit.entity.js';

/** A habit marked SKIP or REST on one day (at most one mark per habit and day). */
@ObjectType('HabitMark', { simpleResolvers: true })
@Entity({ tableName: 'habit_day_marks' })
@Unique({ properties: ['habitId', 'dayId'] })
export class HabitDayMarkRecord extends DayRecord {
  @Field(() => ID)
  @ManyToOne(() => Habit, { mapToPk: true, deleteRule: 'cascade', fieldName: 'habit_id' })
  habitId!: string;

  @Field(() => LocalDate)
  @Property({ type: 'date' })
  date!: string;

  @Field(() => HabitDayMark)
  @Enum({ items: () => HabitDayMark, type: 'string' })
  mark!: HabitDayMark;
}
