import { ExpectedVersion } from '../core/validation/expected-version.js';
import { ArrayMaxSize, ArrayUnique, IsOptional } from 'class-validator';
import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { PageArgs, Paginated } from '../core/pagination.js';
import { LocalDate, UUID } from '../core/scalars.js';
import { OneOfEnum } from '../core/validation/choice.js';
import { IfPresent } from '../core/validation/if-present.js';
import { BoundedNumber, WholeNumber } from '../core/validation/numbers.js';
import { HexColour, OptionalText, RequiredText } from '../core/validation/text.js';
import { DayRangeArgs } from '../training/training.types.js';
import { HabitDayMark, HabitDayState, HabitKind, HabitSchedule, HabitStreakUnit } from './habit-enums.js';
import { HabitEntry } from './habit-entry.entity.js';
import { Habit } from './habit.entity.js';
import { HABIT_ICON_MAX, HABIT_NAME_MAX, HABIT_NOTE_MAX, HABIT_UNIT_MAX, HABIT_VALUE_MAX, HABITS_MAX } from './habit-limits.js';

const VALUE_WORDS = (field: string) => ({ number: `${field} must be a number`, min: `${field} must be greater than 0`, max: `${field} must be at most ${HABIT_VALUE_MAX}` });
const TIMES_WORDS = { int: 'timesPerPeriod must be a whole number', min: 'timesPerPeriod must be at least 1', max: 'timesPerPeriod must be at most 28' };

// ---------------------------------------------------------------- habits

@ArgsType()
export class ListHabitsArgs extends PageArgs {
  @Field(() => Boolean, { nullable: true, description: 'true: the archived habits only; default: the active ones.' })
  archived?: boolean;
}

@ArgsType()
export class HabitIdArgs {
  @Field(() => UUID)
  habitId!: string;
}

/** A delete that may name the `version` last read (docs/concurrency.md). */
@ArgsType()
export class DeleteHabitArgs extends HabitIdArgs {
  @ExpectedVersion()
  expectedVersion?: number | null;
}

/** The fields of a new habit and of a change (the service checks how they fit together). */
@ArgsType()
export class CreateHabitArgs {
  @Field(() => String)
  @RequiredText('name', HABIT_NAME_MAX)
  name!: string;

  @Field(() => String, { nullable: true, description: `An emoji or icon name, at most ${HABIT_ICON_MAX} characters.` })
  @OptionalText(HABIT_ICON_MAX, 'icon')
  icon?: string | null;

  @Field(() => String, { nullable: true, description: '#RRGGBB.' })
  @IsOptional()
  @HexColour('colour')
  colour?: string | null;

  @Field(() => HabitKind, { nullable: true, description: 'Default CHECK.' })
  @IsOptional()
  @OneOfEnum('kind', HabitKind)
  kind?: HabitKind;

  @Field(() => String, { nullable: true, description: 'Required for AMOUNT (e.g. km), optional for COUNT, refused otherwise.' })
  @OptionalText(HABIT_UNIT_MAX, 'unit')
  unit?: string | null;

  @Field(() => Float, { nullable: true, description: 'Per due day: CHECK 1 (the default); COUNT whole times; DURATION whole minutes (1-1440); AMOUNT > 0.' })
  @IsOptional()
  @BoundedNumber(Number.MIN_VALUE, HABIT_VALUE_MAX, VALUE_WORDS('target'))
  target?: number;

  @Field(() => HabitSchedule, { nullable: true, description: 'Default DAILY.' })
  @IsOptional()
  @OneOfEnum('schedule', HabitSchedule)
  schedule?: HabitSchedule;

  @Field(() => [Int], { nullable: true, description: 'WEEKDAYS: ISO weekdays 1 (Monday) … 7 (Sunday), at least one.' })
  @IsOptional()
  @ArrayMaxSize(7, { message: 'weekdays must have at most 7 items' })
  @ArrayUnique({ message: 'weekdays must not repeat a day' })
  weekdays?: number[];

  @Field(() => Int, { nullable: true, description: 'TIMES_PER_WEEK: 1-7; TIMES_PER_MONTH: 1-28.' })
  @IsOptional()
  @WholeNumber(1, 28, TIMES_WORDS)
  timesPerPeriod?: number;

  @Field(() => String, { nullable: true, description: 'RRULE: an RFC 5545 rule (FREQ=…;…, daily or less often), read from startDate.' })
  @OptionalText(500, 'recurrence')
  recurrence?: string;

  @Field(() => LocalDate, { nullable: true, description: 'The first day (default: today in your time zone); an RRULE habit starts on one of its dates.' })
  startDate?: string;
}

@ArgsType()
export class UpdateHabitArgs extends HabitIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('name')
  @RequiredText('name', HABIT_NAME_MAX)
  name?: string;

  @Field(() => String, { nullable: true, description: 'null removes it.' })
  @OptionalText(HABIT_ICON_MAX, 'icon')
  icon?: string | null;

  @Field(() => String, { nullable: true, description: '#RRGGBB; null removes it.' })
  @IsOptional()
  @HexColour('colour')
  colour?: string | null;

  @Field(() => String, { nullable: true, description: 'As on create; null removes it (COUNT).' })
  @OptionalText(HABIT_UNIT_MAX, 'unit')
  unit?: string | null;

  @Field(() => Float, { nullable: true })
  @IfPresent('target')
  @BoundedNumber(Number.MIN_VALUE, HABIT_VALUE_MAX, VALUE_WORDS('target'))
  target?: number;

  @Field(() => HabitSchedule, { nullable: true, description: 'A new schedule takes the fields it needs (weekdays, timesPerPeriod, recurrence) with it.' })
  @IfPresent('schedule')
  @OneOfEnum('schedule', HabitSchedule)
  schedule?: HabitSchedule;

  @Field(() => [Int], { nullable: true })
  @IfPresent('weekdays')
  @ArrayMaxSize(7, { message: 'weekdays must have at most 7 items' })
  @ArrayUnique({ message: 'weekdays must not repeat a day' })
  weekdays?: number[];

  @Field(() => Int, { nullable: true })
  @IfPresent('timesPerPeriod')
  @WholeNumber(1, 28, TIMES_WORDS)
  timesPerPeriod?: number;

  @Field(() => String, { nullable: true })
  @IfPresent('recurrence')
  @OptionalText(500, 'recurrence')
  recurrence?: string;

  @Field(() => LocalDate, { nullable: true })
  startDate?: string;

  @ExpectedVersion()
  expectedVersion?: number | null;
}

@ArgsType()
export class ReorderHabitsArgs {
  @Field(() => [UUID], { description: `Your habits in their new order (at most ${HABITS_MAX}); the ones left out follow, in their order.` })
  @ArrayMaxSize(HABITS_MAX, { message: `habitIds must have at most ${HABITS_MAX} items` })
  @ArrayUnique({ message: 'habitIds must not repeat a habit' })
  habitIds!: string[];
}

export const HabitPage = Paginated(Habit, 'HabitPage');
export type HabitPage = InstanceType<typeof HabitPage>;

// ---------------------------------------------------------------- entries and marks

@ArgsType()
export class LogHabitEntryArgs extends HabitIdArgs {
  @Field(() => UUID, { nullable: true, description: 'The day; default: `date`, else today in your time zone.' })
  dayId?: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'The date of the day (its week is generated when needed), instead of dayId.' })
  date?: string | null;

  @Field(() => Float, { nullable: true, description: 'CHECK: 1 (the default); COUNT: whole times (default 1); DURATION: whole minutes; AMOUNT: > 0.' })
  @IsOptional()
  @BoundedNumber(Number.MIN_VALUE, HABIT_VALUE_MAX, VALUE_WORDS('value'))
  value?: number | null;

  @Field(() => String, { nullable: true })
  @OptionalText(HABIT_NOTE_MAX, 'note')
  note?: string | null;
}

@ArgsType()
export class HabitEntryIdArgs {
  @Field(() => UUID)
  entryId!: string;
}

@ArgsType()
export class ListHabitEntriesArgs extends DayRangeArgs {
  @Field(() => UUID)
  habitId!: string;
}

@ArgsType()
export class MarkHabitDayArgs extends HabitIdArgs {
  @Field(() => UUID)
  dayId!: string;

  @Field(() => HabitDayMark, { nullable: true, description: 'SKIP or REST; null clears the mark.' })
  @IsOptional()
  @OneOfEnum('mark', HabitDayMark)
  mark?: HabitDayMark | null;
}

export const HabitEntryPage = Paginated(HabitEntry, 'HabitEntryPage');
export type HabitEntryPage = InstanceType<typeof HabitEntryPage>;

// ---------------------------------------------------------------- day, week and streak reads

@ObjectType({ description: 'A habit on one day: its state and what was logged.', simpleResolvers: true })
export class HabitDay {
  @Field(() => ID)
  habitId!: string;

  @Field(() => Habit)
  habit!: Habit;

  @Field(() => LocalDate)
  date!: string;

  @Field(() => HabitDayState)
  state!: HabitDayState;

  @Field(() => Float, { description: "The sum of the day's entries." })
  value!: number;

  @Field(() => Float)
  target!: number;

  @Field(() => HabitDayMark, { nullable: true })
  mark!: HabitDayMark | null;

  @Field(() => Int, { nullable: true, description: "Quota habits: the days of this date's week or month done." })
  periodDone!: number | null;

  @Field(() => Int, { nullable: true, description: 'Quota habits: the days that period needs (the quota, fewer when rest days leave too few).' })
  periodRequired!: number | null;
}

@ObjectType({ description: 'A habit over one week (Monday to Sunday).', simpleResolvers: true })
export class HabitWeek {
  @Field(() => ID)
  habitId!: string;

  @Field(() => Habit)
  habit!: Habit;

  @Field(() => [HabitDay], { description: 'Monday to Sunday.' })
  days!: HabitDay[];

  @Field(() => Int, { description: 'Days of the week DONE.' })
  done!: number;
}

@ObjectType({ description: "A habit's streak on today (your time zone).", simpleResolvers: true })
export class HabitStreak {
  @Field(() => ID)
  habitId!: string;

  @Field(() => HabitStreakUnit)
  unit!: HabitStreakUnit;

  @Field(() => Int, { description: 'Consecutive due days (or weeks, months for quotas) done, up to today.' })
  current!: number;

  @Field(() => Int, { description: 'The longest streak ever computed.' })
  longest!: number;

  @Field(() => Int)
  freezesUsedThisMonth!: number;

  @Field(() => Int)
  freezesLeftThisMonth!: number;
}

@ArgsType()
export class HabitsOnDayArgs extends PageArgs {
  @Field(() => UUID)
  dayId!: string;
}

@ArgsType()
export class HabitsInWeekArgs extends PageArgs {
  @Field(() => LocalDate, { description: 'Any date of the week (its Monday starts it).' })
  startDate!: string;
}

@ArgsType()
export class HabitStreaksArgs extends PageArgs {}

export const HabitDayPage = Paginated(HabitDay, 'HabitDayPage');
export type HabitDayPage = InstanceType<typeof HabitDayPage>;
export const HabitWeekPage = Paginated(HabitWeek, 'HabitWeekPage');
export type HabitWeekPage = InstanceType<typeof HabitWeekPage>;
export const HabitStreakPage = Paginated(HabitStreak, 'HabitStreakPage');
export type HabitStreakPage = InstanceType<typeof HabitStreakPage>;
