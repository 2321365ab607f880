import { ArgsType, Field, Float, Int } from 'type-graphql';
import { IsOptional } from 'class-validator';
import { DateTimeISO, UUID } from '../core/scalars.js';
import { OptionalText } from '../core/validation/text.js';
import { BoundedNumber, WholeNumber } from '../core/validation/numbers.js';

export const NOTES_MAX = 10_000;
/** Mood, energy and sleep quality: 1 to 10. */
export const SCORE_MIN = 1;
export const SCORE_MAX = 10;
export const scoreMessage = (field: string) => `${field} must be ${SCORE_MIN} to ${SCORE_MAX}`;

/** Upper bounds shared by the session API and the Public API (one rule for both). */
export const WATER_VOLUME_MIN_ML = 0.001;
export const WATER_VOLUME_MAX_ML = 20_000;
export const STEPS_MAX = 1_000_000;
/** Hours of a night's sleep; minutes of a meditation; characters of its type. */
export const SLEEP_HOURS_MAX = 24;
export const MEDITATION_MINUTES_MAX = 1_440;
export const MEDITATION_TYPE_MAX = 100;

/**
 * The wording of the steps, sleep and meditation rules, one for the GraphQL and REST arguments below
 * and the connector's tool arguments (src/connector/mcp/tools/health.tools.ts).
 */
export const WELLNESS_MESSAGES = {
  wholeNumber: (field: string) => `${field} must be a whole number`,
  wholeMinutes: (field: string) => `${field} must be whole minutes`,
  notNegative: (field: string) => `${field} must not be negative`,
  positive: (field: string) => `${field} must be positive`,
  positiveMinutes: (field: string) => `${field} must be a positive number of minutes`,
  atMost: (field: string, max: number, unit?: string) => `${field} must be at most ${max}${unit ? ` ${unit}` : ''}`,
};

@ArgsType()
class DayLogArgs {
  @Field(() => UUID)
  dayId!: string;

  @Field(() => String, { nullable: true })
  @OptionalText(NOTES_MAX)
  notes?: string;
}

@ArgsType()
class TimedDayLogArgs extends DayLogArgs {
  @Field(() => DateTimeISO, { nullable: true, description: 'Defaults to now.' })
  time?: Date;
}

@ArgsType()
export class LogWaterArgs extends TimedDayLogArgs {
  @Field(() => Float, { description: 'Millilitres, above 0 and at most 20000.' })
  @BoundedNumber(WATER_VOLUME_MIN_ML, WATER_VOLUME_MAX_ML, { min: 'volume must be positive', max: `volume must be at most ${WATER_VOLUME_MAX_ML} millilitres` })
  volume!: number;
}

@ArgsType()
export class LogStepsArgs extends TimedDayLogArgs {
  @Field(() => Int, { description: 'Non-negative.' })
  @WholeNumber(0, STEPS_MAX, { int: WELLNESS_MESSAGES.wholeNumber('steps'), min: WELLNESS_MESSAGES.notNegative('steps'), max: WELLNESS_MESSAGES.atMost('steps', STEPS_MAX) })
  steps!: number;
}

@ArgsType()
export class LogMeditationArgs extends TimedDayLogArgs {
  @Field(() => Int, { description: 'Minutes, 1-1440.' })
  @WholeNumber(1, MEDITATION_MINUTES_MAX, { int: WELLNESS_MESSAGES.wholeMinutes('duration'), min: WELLNESS_MESSAGES.positiveMinutes('duration'), max: WELLNESS_MESSAGES.atMost('duration', MEDITATION_MINUTES_MAX, 'minutes') })
  duration!: number;

  @Field(() => String, { nullable: true, description: 'Free text.' })
  @OptionalText(MEDITATION_TYPE_MAX)
  type?: string;
}

@ArgsType()
export class LogMoodArgs extends TimedDayLogArgs {
  @Field(() => Int, { description: '1-10.' })
  @WholeNumber(SCORE_MIN, SCORE_MAX, { int: 'mood must be a whole number', min: scoreMessage('mood'), max: scoreMessage('mood') })
  mood!: number;

  @Field(() => Int, { description: '1-10.' })
  @WholeNumber(SCORE_MIN, SCORE_MAX, { int: 'energy must be a whole number', min: scoreMessage('energy'), max: scoreMessage('energy') })
  energy!: number;
}

@ArgsType()
export class LogSleepArgs extends DayLogArgs {
  @Field(() => Float, { description: 'Hours, above 0 and at most 24.' })
  @BoundedNumber(0.001, SLEEP_HOURS_MAX, { min: WELLNESS_MESSAGES.positive('duration'), max: WELLNESS_MESSAGES.atMost('duration', SLEEP_HOURS_MAX, 'hours') })
  duration!: number;

  @Field(() => DateTimeISO, { nullable: true })
  bedtime?: Date;

  @Field(() => DateTimeISO, { nullable: true })
  wakeTime?: Date;

  @Field(() => Int, { nullable: true, description: '1-10.' })
  @IsOptional()
  @WholeNumber(SCORE_MIN, SCORE_MAX, { int: WELLNESS_MESSAGES.wholeNumber('quality'), min: scoreMessage('quality'), max: scoreMessage('quality') })
  quality?: number;
}
