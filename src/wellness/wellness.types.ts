import { ArgsType, Field, Float, Int } from 'type-graphql';
import { IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DateTimeISO, UUID } from '../core/scalars.js';

export const NOTES_MAX = 10_000;
/** Mood, energy and sleep quality: 1 to 10. */
export const SCORE_MIN = 1;
export const SCORE_MAX = 10;
export const scoreMessage = (field: string) => `${field} must be ${SCORE_MIN} to ${SCORE_MAX}`;

/** Upper bounds shared by the session API and the Public API (one rule for both). */
export const WATER_VOLUME_MAX_ML = 20_000;
export const STEPS_MAX = 1_000_000;

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
  @Min(0.001, { message: 'volume must be positive' })
  @Max(WATER_VOLUME_MAX_ML, { message: `volume must be at most ${WATER_VOLUME_MAX_ML} millilitres` })
  volume!: number;
}

@ArgsType()
export class LogStepsArgs extends TimedDayLogArgs {
  @Field(() => Int, { description: 'Non-negative.' })
  @IsInt({ message: 'steps must be a whole number' })
  @Min(0, { message: 'steps must not be negative' })
  @Max(STEPS_MAX, { message: `steps must be at most ${STEPS_MAX}` })
  steps!: number;
}

@ArgsType()
export class LogMeditationArgs extends TimedDayLogArgs {
  @Field(() => Int, { description: 'Minutes, 1-1440.' })
  @IsInt({ message: 'duration must be whole minutes' })
  @Min(1, { message: 'duration must be a positive number of minutes' })
  @Max(1_440, { message: 'duration must be at most 1440 minutes' })
  duration!: number;

  @Field(() => String, { nullable: true, description: 'Free text.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
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
  @Min(0.001, { message: 'duration must be positive' })
  @Max(24, { message: 'duration must be at most 24 hours' })
  duration!: number;

  @Field(() => DateTimeISO, { nullable: true })
  bedtime?: Date;

  @Field(() => DateTimeISO, { nullable: true })
  wakeTime?: Date;

  @Field(() => Int, { nullable: true, description: '1-10.' })
  @IsOptional()
  @IsInt({ message: 'quality must be a whole number' })
  @Min(SCORE_MIN, { message: scoreMessage('quality') })
  @Max(SCORE_MAX, { message: scoreMessage('quality') })
  quality?: number;
}
