import { ArgsType, Field, Float, Int } from 'type-graphql';
import { IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DateTimeISO, UUID } from '../core/scalars.js';

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
  @IsOptional()
  @IsString()
  @MaxLength(NOTES_MAX)
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
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(WATER_VOLUME_MIN_ML, { message: 'volume must be positive' })
  @Max(WATER_VOLUME_MAX_ML, { message: `volume must be at most ${WATER_VOLUME_MAX_ML} millilitres` })
  volume!: number;
}

@ArgsType()
export class LogStepsArgs extends TimedDayLogArgs {
  @Field(() => Int, { description: 'Non-negative.' })
  @IsInt({ message: WELLNESS_MESSAGES.wholeNumber('steps') })
  @Min(0, { message: WELLNESS_MESSAGES.notNegative('steps') })
  @Max(STEPS_MAX, { message: WELLNESS_MESSAGES.atMost('steps', STEPS_MAX) })
  steps!: number;
}

@ArgsType()
export class LogMeditationArgs extends TimedDayLogArgs {
  @Field(() => Int, { description: 'Minutes, 1-1440.' })
  @IsInt({ message: WELLNESS_MESSAGES.wholeMinutes('duration') })
  @Min(1, { message: WELLNESS_MESSAGES.positiveMinutes('duration') })
  @Max(MEDITATION_MINUTES_MAX, { message: WELLNESS_MESSAGES.atMost('duration', MEDITATION_MINUTES_MAX, 'minutes') })
  duration!: number;

  @Field(() => String, { nullable: true, description: 'Free text.' })
  @IsOptional()
  @IsString()
  @MaxLength(MEDITATION_TYPE_MAX)
  type?: string;
}

@ArgsType()
export class LogMoodArgs extends TimedDayLogArgs {
  @Field(() => Int, { description: '1-10.' })
  @IsInt({ message: 'mood must be a whole number' })
  @Min(SCORE_MIN, { message: scoreMessage('mood') })
  @Max(SCORE_MAX, { message: scoreMessage('mood') })
  mood!: number;

  @Field(() => Int, { description: '1-10.' })
  @IsInt({ message: 'energy must be a whole number' })
  @Min(SCORE_MIN, { message: scoreMessage('energy') })
  @Max(SCORE_MAX, { message: scoreMessage('energy') })
  energy!: number;
}

@ArgsType()
export class LogSleepArgs extends DayLogArgs {
  @Field(() => Float, { description: 'Hours, above 0 and at most 24.' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.001, { message: WELLNESS_MESSAGES.positive('duration') })
  @Max(SLEEP_HOURS_MAX, { message: WELLNESS_MESSAGES.atMost('duration', SLEEP_HOURS_MAX, 'hours') })
  duration!: number;

  @Field(() => DateTimeISO, { nullable: true })
  bedtime?: Date;

  @Field(() => DateTimeISO, { nullable: true })
  wakeTime?: Date;

  @Field(() => Int, { nullable: true, description: '1-10.' })
  @IsOptional()
  @IsInt({ message: WELLNESS_MESSAGES.wholeNumber('quality') })
  @Min(SCORE_MIN, { message: scoreMessage('quality') })
  @Max(SCORE_MAX, { message: scoreMessage('quality') })
  quality?: number;
}
