import type { HabitEntry } from '../habits/habit-entry.entity.js';
import { IsOptional } from 'class-validator';
import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { LocalDate, UUID } from '../core/scalars.js';
import { BoundedNumber } from '../core/validation/numbers.js';
import { OptionalText } from '../core/validation/text.js';
import { HabitDayState, HabitKind, HabitStreakUnit } from '../habits/habit-enums.js';
import { HABIT_NOTE_MAX, HABIT_VALUE_MAX } from '../habits/habit-limits.js';

/**
 * The Public API's habits (issue 37): the lookup a script needs to log by id (like the exercise
 * search), and the log itself on the key owner's today. Answers carry identifiers, what was logged and
 * the day's state, nothing else of the habit.
 */

@ArgsType()
export class PublicLogHabitArgs {
  @Field(() => UUID, { description: 'A habit of the caller (GET /habits); another person\'s answers 404.' })
  habitId!: string;

  @Field(() => Float, { nullable: true, description: 'CHECK: 1 (the default); COUNT: whole times (default 1); DURATION: whole minutes; AMOUNT: > 0 in the habit\'s unit.' })
  @IsOptional()
  @BoundedNumber(Number.MIN_VALUE, HABIT_VALUE_MAX, { number: 'value must be a number', min: 'value must be greater than 0', max: `value must be at most ${HABIT_VALUE_MAX}` })
  value?: number | null;

  @Field(() => String, { nullable: true, description: `Free text, at most ${HABIT_NOTE_MAX} characters.` })
  @OptionalText(HABIT_NOTE_MAX, 'note')
  note?: string | null;
}

@ObjectType('PublicHabit', { simpleResolvers: true, description: 'An active habit of the caller, with its state on their today.' })
export class PublicHabit {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => HabitKind)
  kind!: HabitKind;

  @Field(() => String, { nullable: true, description: 'AMOUNT habits: the unit of a value.' })
  unit!: string | null;

  @Field(() => Float, { description: 'What a due day\'s entries must add up to.' })
  target!: number;

  @Field(() => HabitDayState, { description: 'Its state on the caller\'s today.' })
  state!: HabitDayState;

  @Field(() => Float, { description: 'Today\'s entries added up.' })
  value!: number;

  @Field(() => Int, { description: 'The streak stored at its last write (entries, marks) or by the streak sweep (within ten minutes of the caller\'s midnight), in `streakUnit`s.' })
  currentStreak!: number;

  @Field(() => HabitStreakUnit)
  streakUnit!: HabitStreakUnit;
}

@ObjectType('PublicHabitLogged', { simpleResolvers: true })
export class PublicHabitLogged {
  @Field(() => ID, { description: 'The entry.' })
  id!: string;

  @Field(() => ID)
  habitId!: string;

  @Field(() => LocalDate, { description: 'The caller\'s today.' })
  date!: string;

  @Field(() => Float, { description: 'This entry\'s value.' })
  value!: number;

  @Field(() => HabitDayState, { description: 'The habit\'s state today after this entry.' })
  state!: HabitDayState;

  @Field(() => Float, { description: 'Today\'s entries added up.' })
  dayValue!: number;

  @Field(() => Float)
  target!: number;

  @Field(() => Int, { description: 'The streak after this entry, in `streakUnit`s.' })
  currentStreak!: number;

  @Field(() => HabitStreakUnit)
  streakUnit!: HabitStreakUnit;

  @Field(() => String)
  message!: string;

  /** Not answered: the stored entry (an undo of this write reads it, docs/undo.md). */
  record?: HabitEntry;
}
