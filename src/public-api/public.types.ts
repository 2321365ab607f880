import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import {
  ArrayMaxSize,
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { DateTimeISO, UUID } from '../core/scalars.js';
import { CardioEffort } from '../training/cardio-effort.js';
import type { WaterIntake } from '../wellness/water-intake.entity.js';
import type { TrainingSession } from '../training/training-session.entity.js';
import type { StepsEntry } from '../wellness/steps-entry.entity.js';
import type { MeditationSession } from '../wellness/meditation-session.entity.js';
import type { CardioSession } from '../training/cardio-session.entity.js';
import type { MoodEntry } from '../wellness/mood-entry.entity.js';
import type { SleepEntry } from '../wellness/sleep-entry.entity.js';
import type { BodyMeasurement } from '../body/body-measurement.entity.js';
import {
  CALORIES_MAX,
  DISTANCE_MAX_KM,
  ELEVATION_GAIN_MAX_M,
  HEART_RATE_MAX,
  LOAD_MAX_KG,
  PACE_MAX,
  REPS_MAX,
  SET_NUMBER_MAX,
} from '../training/training.types.js';
import { STEPS_MAX, WATER_VOLUME_MAX_ML } from '../wellness/wellness.types.js';
import { BODY_WEIGHT_MAX_KG } from '../body/body.types.js';
import { OptionalText, RequiredText } from '../core/validation/text.js';
import { WholeNumber } from '../core/validation/numbers.js';
import { composed } from '../core/validation/compose.js';
import { OneOfEnum } from '../core/validation/choice.js';

/**
 * Arguments and answers of the Public API (`/api/public/v1`). Each args class is one route's flat JSON
 * body, with the spec table's fields, types, ranges and defaults; `dayId` is never accepted (writes go
 * to the key owner's today). Answers carry only identifiers and what was logged.
 */

export const PUBLIC_NOTES_MAX = 2_000;
export const PUBLIC_TEXT_MAX = 100;
/** Durations in minutes: at most one day. */
export const PUBLIC_MINUTES_MAX = 1_440;
export const PUBLIC_EXERCISES_MAX = 50;
export const PUBLIC_SETS_MAX = 50;
/** Exercises GET /exercises/search answers at most (by name). */
export const PUBLIC_SEARCH_MAX = 100;

function Notes(): PropertyDecorator {
  return composed(Field(() => String, { nullable: true, description: `Free text, at most ${PUBLIC_NOTES_MAX} characters.` }), OptionalText(PUBLIC_NOTES_MAX, 'notes'));
}

function OptionalTime(description: string): PropertyDecorator {
  return composed(Field(() => DateTimeISO, { nullable: true, description: `${description} ISO 8601 datetime.` }), IsOptional());
}

// ---------------------------------------------------------------- requests

@ArgsType()
export class PublicExerciseSearchArgs {
  @Field(() => String, { nullable: true, description: 'Name contains this text (any case); absent: the whole catalog.' })
  @OptionalText(200, 'q')
  q?: string;
}

@ArgsType()
export class PublicWaterArgs {
  @Field(() => Float, { description: 'Millilitres, positive.' })
  @IsNumber({}, { message: 'volume must be a number' })
  @IsPositive({ message: 'volume must be a positive number of millilitres' })
  @Max(WATER_VOLUME_MAX_ML, { message: `volume must be at most ${WATER_VOLUME_MAX_ML} millilitres` })
  volume!: number;

  @OptionalTime('When the water was drunk (default: now).')
  time?: Date | null;

  @Notes()
  notes?: string | null;
}

@InputType('PublicWorkoutSetInput')
export class PublicWorkoutSetInput {
  @Field(() => Int, { description: 'Position of the set, a positive integer.' })
  @IsInt({ message: 'setNumber must be an integer' })
  @IsPositive({ message: 'setNumber must be a positive integer' })
  @Max(SET_NUMBER_MAX)
  setNumber!: number;

  @Field(() => Int, { nullable: true, description: 'Repetitions, a positive integer.' })
  @IsOptional()
  @IsInt({ message: 'reps must be an integer' })
  @IsPositive({ message: 'reps must be a positive integer' })
  @Max(REPS_MAX)
  reps?: number | null;

  @Field(() => Float, { nullable: true, description: 'Load in kilograms, positive.' })
  @IsOptional()
  @IsNumber({}, { message: 'weight must be a number' })
  @IsPositive({ message: 'weight must be a positive number' })
  @Max(LOAD_MAX_KG)
  weight?: number | null;
}

@InputType('PublicWorkoutExerciseInput')
export class PublicWorkoutExerciseInput {
  @Field(() => UUID, { description: 'An exercise id from GET /exercises/search.' })
  exerciseId!: string;

  @Field(() => [PublicWorkoutSetInput], { nullable: true, description: `At most ${PUBLIC_SETS_MAX} sets.` })
  @IsOptional()
  @ArrayMaxSize(PUBLIC_SETS_MAX, { message: `sets must have at most ${PUBLIC_SETS_MAX} items` })
  @ValidateNested({ each: true })
  sets?: PublicWorkoutSetInput[] | null;
}

@ArgsType()
export class PublicWorkoutArgs {
  @Field(() => String, { description: 'The split label of the session (e.g. Push).' })
  @RequiredText('splitLabel', PUBLIC_TEXT_MAX)
  splitLabel!: string;

  @OptionalTime('When the session started.')
  startTime?: Date | null;

  @OptionalTime('When the session ended (not before startTime).')
  endTime?: Date | null;

  @Field(() => Int, { nullable: true, description: 'Session RPE, an integer 1-10.' })
  @IsOptional()
  @WholeNumber(1, 10, { int: 'sessionRPE must be an integer', min: 'sessionRPE must be between 1 and 10', max: 'sessionRPE must be between 1 and 10' })
  sessionRPE?: number | null;

  @Notes()
  notes?: string | null;

  @Field(() => [PublicWorkoutExerciseInput], { nullable: true, description: `At most ${PUBLIC_EXERCISES_MAX} exercises.` })
  @IsOptional()
  @ArrayMaxSize(PUBLIC_EXERCISES_MAX, { message: `exercises must have at most ${PUBLIC_EXERCISES_MAX} items` })
  @ValidateNested({ each: true })
  exercises?: PublicWorkoutExerciseInput[] | null;
}

@ArgsType()
export class PublicStepsArgs {
  @Field(() => Int, { description: 'Step count, a non-negative integer.' })
  @WholeNumber(0, STEPS_MAX, { int: 'steps must be an integer', min: 'steps must not be negative', max: `steps must be at most ${STEPS_MAX}` })
  steps!: number;

  @OptionalTime('When the steps were counted (default: now).')
  time?: Date | null;

  @Notes()
  notes?: string | null;
}

@ArgsType()
export class PublicMeditationArgs {
  @Field(() => Int, { description: 'Minutes, a positive integer.' })
  @IsInt({ message: 'duration must be an integer' })
  @IsPositive({ message: 'duration must be a positive number of minutes' })
  @Max(PUBLIC_MINUTES_MAX, { message: `duration must be at most ${PUBLIC_MINUTES_MAX} minutes` })
  duration!: number;

  @Field(() => String, { nullable: true, description: 'Free text, e.g. breathing.' })
  @OptionalText(PUBLIC_TEXT_MAX, 'type')
  type?: string | null;

  @OptionalTime('When the session took place (default: now).')
  time?: Date | null;

  @Notes()
  notes?: string | null;
}

@ArgsType()
export class PublicCardioArgs {
  @Field(() => String, { description: 'Kind of cardio, e.g. run.' })
  @RequiredText('type', PUBLIC_TEXT_MAX)
  type!: string;

  @Field(() => Int, { description: 'Minutes, a positive integer.' })
  @IsInt({ message: 'duration must be an integer' })
  @IsPositive({ message: 'duration must be a positive number of minutes' })
  @Max(PUBLIC_MINUTES_MAX, { message: `duration must be at most ${PUBLIC_MINUTES_MAX} minutes` })
  duration!: number;

  // Optional like every other field here: an explicit null is the same as leaving it out (easy).
  @Field(() => CardioEffort, { nullable: true, defaultValue: CardioEffort.easy, description: 'easy, zone2 or hard (default easy).' })
  @IsOptional()
  @OneOfEnum('intensity', CardioEffort)
  intensity?: CardioEffort | null;

  @Field(() => Float, { nullable: true, description: 'Distance, a positive number.' })
  @IsOptional()
  @IsNumber({}, { message: 'distance must be a number' })
  @IsPositive({ message: 'distance must be a positive number' })
  @Max(DISTANCE_MAX_KM)
  distance?: number | null;

  @Field(() => Float, { nullable: true, description: 'Pace, a positive number.' })
  @IsOptional()
  @IsNumber({}, { message: 'pace must be a number' })
  @IsPositive({ message: 'pace must be a positive number' })
  @Max(PACE_MAX)
  pace?: number | null;

  @Field(() => Int, { nullable: true, description: 'Average heart rate, positive integer bpm.' })
  @IsOptional()
  @IsInt({ message: 'averageHeartRate must be an integer' })
  @IsPositive({ message: 'averageHeartRate must be a positive integer' })
  @Max(HEART_RATE_MAX)
  averageHeartRate?: number | null;

  @Field(() => Int, { nullable: true, description: 'Maximum heart rate, positive integer bpm.' })
  @IsOptional()
  @IsInt({ message: 'maxHeartRate must be an integer' })
  @IsPositive({ message: 'maxHeartRate must be a positive integer' })
  @Max(HEART_RATE_MAX)
  maxHeartRate?: number | null;

  @Field(() => Int, { nullable: true, description: 'Calories, a positive integer.' })
  @IsOptional()
  @IsInt({ message: 'calories must be an integer' })
  @IsPositive({ message: 'calories must be a positive integer' })
  @Max(CALORIES_MAX)
  calories?: number | null;

  @Field(() => Int, { nullable: true, description: 'Elevation gain, a non-negative integer.' })
  @IsOptional()
  @WholeNumber(0, ELEVATION_GAIN_MAX_M, { int: 'elevationGain must be an integer', min: 'elevationGain must not be negative' })
  elevationGain?: number | null;

  @OptionalTime('When the session started.')
  startTime?: Date | null;

  @OptionalTime('When the session ended (not before startTime).')
  endTime?: Date | null;

  @Notes()
  notes?: string | null;
}

@ArgsType()
export class PublicMoodArgs {
  @Field(() => Int, { description: 'Mood, an integer 1-10.' })
  @WholeNumber(1, 10, { int: 'mood must be an integer', min: 'mood must be between 1 and 10', max: 'mood must be between 1 and 10' })
  mood!: number;

  @Field(() => Int, { description: 'Energy, an integer 1-10.' })
  @WholeNumber(1, 10, { int: 'energy must be an integer', min: 'energy must be between 1 and 10', max: 'energy must be between 1 and 10' })
  energy!: number;

  @Notes()
  notes?: string | null;

  @OptionalTime('When it was felt (default: now).')
  time?: Date | null;
}

@ArgsType()
export class PublicSleepArgs {
  @Field(() => Float, { description: 'Hours slept, a positive number.' })
  @IsNumber({}, { message: 'duration must be a number' })
  @IsPositive({ message: 'duration must be a positive number of hours' })
  @Max(24, { message: 'duration must be at most 24 hours' })
  duration!: number;

  @OptionalTime('When the user went to bed.')
  bedtime?: Date | null;

  @OptionalTime('When the user woke up (not before bedtime).')
  wakeTime?: Date | null;

  @Field(() => Int, { nullable: true, description: 'Sleep quality, an integer 1-10.' })
  @IsOptional()
  @WholeNumber(1, 10, { int: 'quality must be an integer', min: 'quality must be between 1 and 10', max: 'quality must be between 1 and 10' })
  quality?: number | null;

  @Notes()
  notes?: string | null;
}

@ArgsType()
export class PublicBodyMetricsArgs {
  @Field(() => Float, { description: 'Body weight in kilograms, positive.' })
  @IsNumber({}, { message: 'weight must be a number' })
  @IsPositive({ message: 'weight must be a positive number of kilograms' })
  @Max(BODY_WEIGHT_MAX_KG, { message: `weight must be at most ${BODY_WEIGHT_MAX_KG} kg` })
  weight!: number;

  @Field(() => Float, { nullable: true, description: 'Body fat percentage, 0-100.' })
  @IsOptional()
  @IsNumber({}, { message: 'bodyFat must be a number' })
  @Min(0, { message: 'bodyFat must be between 0 and 100' })
  @Max(100, { message: 'bodyFat must be between 0 and 100' })
  bodyFat?: number | null;

  @Notes()
  notes?: string | null;

  @OptionalTime('When it was measured; used as the measurement date (default: now).')
  time?: Date | null;
}

// ---------------------------------------------------------------- answers

@ObjectType('PublicExercise', { simpleResolvers: true, description: 'An exercise of the caller\'s catalog.' })
export class PublicExercise {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true, description: 'The primary muscle group (the first one listed).' })
  muscleGroup!: string | null;
}

@ObjectType('PublicWaterLogged', { simpleResolvers: true })
export class PublicWaterLogged {
  @Field(() => ID)
  id!: string;

  @Field(() => Float, { description: 'Millilitres.' })
  volume!: number;

  @Field(() => DateTimeISO)
  time!: Date;

  @Field(() => String)
  message!: string;

  /** Not answered: the stored record (an undo of this write reads it, docs/undo.md). */
  record?: WaterIntake;
}

@ObjectType('PublicWorkoutLogged', { simpleResolvers: true })
export class PublicWorkoutLogged {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  splitLabel!: string;

  @Field(() => Int)
  exercisesCount!: number;

  @Field(() => String)
  message!: string;

  /** Not answered: the stored record (an undo of this write reads it, docs/undo.md). */
  record?: TrainingSession;
}

@ObjectType('PublicStepsLogged', { simpleResolvers: true })
export class PublicStepsLogged {
  @Field(() => Int)
  steps!: number;

  @Field(() => String)
  message!: string;

  /** Not answered: the stored record (an undo of this write reads it, docs/undo.md). */
  record?: StepsEntry;
}

@ObjectType('PublicMeditationLogged', { simpleResolvers: true })
export class PublicMeditationLogged {
  @Field(() => Int, { description: 'Minutes.' })
  duration!: number;

  @Field(() => String, { nullable: true })
  type!: string | null;

  @Field(() => DateTimeISO)
  time!: Date;

  @Field(() => String)
  message!: string;

  /** Not answered: the stored record (an undo of this write reads it, docs/undo.md). */
  record?: MeditationSession;
}

@ObjectType('PublicCardioLogged', { simpleResolvers: true })
export class PublicCardioLogged {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  type!: string;

  @Field(() => Int, { description: 'Minutes.' })
  duration!: number;

  @Field(() => String)
  message!: string;

  /** Not answered: the stored record (an undo of this write reads it, docs/undo.md). */
  record?: CardioSession;
}

@ObjectType('PublicMoodLogged', { simpleResolvers: true })
export class PublicMoodLogged {
  @Field(() => Int)
  mood!: number;

  @Field(() => Int)
  energy!: number;

  @Field(() => String)
  message!: string;

  /** Not answered: the stored record (an undo of this write reads it, docs/undo.md). */
  record?: MoodEntry;
}

@ObjectType('PublicSleepLogged', { simpleResolvers: true })
export class PublicSleepLogged {
  @Field(() => Float, { description: 'The day\'s sleepHours.' })
  sleepHours!: number;

  @Field(() => String)
  message!: string;

  /** Not answered: the stored record (an undo of this write reads it, docs/undo.md). */
  record?: SleepEntry;
}

@ObjectType('PublicBodyMetricsLogged', { simpleResolvers: true })
export class PublicBodyMetricsLogged {
  @Field(() => ID)
  id!: string;

  @Field(() => Float, { description: 'Kilograms.' })
  weight!: number;

  @Field(() => Float, { nullable: true, description: 'Percent.' })
  bodyFat!: number | null;

  @Field(() => String)
  message!: string;

  /** Not answered: the stored record (an undo of this write reads it, docs/undo.md). */
  record?: BodyMeasurement;
}
