import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import {
  ArrayMaxSize,
  IsBoolean,
  IsEnum,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateBy,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import { PageArgs, Paginated } from '../core/pagination.js';
import { DateTimeISO, LocalDate, UUID } from '../core/scalars.js';
import { CardioEffort } from './cardio-effort.js';
import { RangeOfMotion } from './range-of-motion.js';
import { CardioSession } from './cardio-session.entity.js';
import { Exercise } from './exercise.entity.js';
import { IfPresent } from '../core/validation/if-present.js';
import { MobilitySession } from './mobility-session.entity.js';
import { TrainingSession } from './training-session.entity.js';
import { OptionalText, RequiredText } from '../core/validation/text.js';
import { BoundedNumber, WholeNumber } from '../core/validation/numbers.js';

export const NOTES_MAX = 10_000;
/** A session lasts at most a day. */
export const DURATION_MAX = 1_440;
export const MAX_EXERCISES = 50;
export const MAX_SETS = 50;
/** A session's split label, a mobility focus and a cardio type: at most this many characters. */
export const SPLIT_MAX = 100;
export const FOCUS_MAX = 200;
export const CARDIO_TYPE_MAX = 100;
/** An exercise's name and category (and the catalog search's text for them). */
export const EXERCISE_NAME_MAX = 200;
export const EXERCISE_CATEGORY_MAX = 100;
/** RPE, session RPE and intensity are rated 1 to 10; reps in reserve 0 to 10. */
export const RATING_MIN = 1;
export const RATING_MAX = 10;
export const RIR_MAX = 10;
/** Seconds of rest after a set: at most a day. */
export const REST_TIME_MAX = 86_400;

/**
 * The wording of this module's number rules, one for the GraphQL and REST arguments below and the
 * connector's tool arguments (src/connector/mcp/tools/training.tools.ts).
 */
export const TRAINING_MESSAGES = {
  wholeNumber: (field: string) => `${field} must be a whole number`,
  wholeSeconds: (field: string) => `${field} must be whole seconds`,
  wholeMinutes: (field: string) => `${field} must be whole minutes`,
  notNegative: (field: string) => `${field} must not be negative`,
  positive: (field: string) => `${field} must be positive`,
  positiveMinutes: (field: string) => `${field} must be a positive number of minutes`,
  atMostMinutes: (field: string, max: number) => `${field} must be at most ${max} minutes`,
  atLeast: (field: string, min: number) => `${field} must be at least ${min}`,
  range: (field: string, min: number, max: number) => `${field} must be ${min} to ${max}`,
  number: (field: string) => `${field} must be a number`,
  halfStep: (field: string) => `${field} must be in steps of 0.5`,
  tempo: 'tempo must look like 3-1-1-0 (three or four phases of seconds or X)',
  tooManySets: `at most ${MAX_SETS} sets per exercise`,
  tooManyExercises: `at most ${MAX_EXERCISES} exercises per session`,
};

/** Upper bounds of what a session logs, shared by the session API and the Public API (one rule for both). */
export const SET_NUMBER_MAX = 1_000;
export const REPS_MAX = 10_000;
export const LOAD_MAX_KG = 10_000;
export const DISTANCE_MAX_KM = 10_000;
export const PACE_MAX = 10_000;
export const HEART_RATE_MAX = 300;
export const CALORIES_MAX = 100_000;
export const ELEVATION_GAIN_MAX_M = 100_000;
/** Seconds a set's time under tension or pause may last. */
export const SET_SECONDS_MAX = 3_600;
/** m/s; the fastest barbell movements stay well under this. */
export const VELOCITY_MAX = 20;
export const SET_NOTES_MAX = 1_000;
/** Eccentric, pause, concentric (and an optional last pause) in seconds, X for explosive: 3-1-1-0, 2-0-X. */
export const TEMPO_PATTERN = /^(\d{1,2}|[xX])(-(\d{1,2}|[xX])){2,3}$/;

/** A number in steps of 0.5 (validator.js' isDivisibleBy works on integers only). */
function IsHalfStep(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isHalfStep', validator: { validate: (value: unknown) => typeof value === 'number' && Number.isInteger(value * 2) } }, options);
}

// ---------------------------------------------------------------- lists by day

@ArgsType()
export class DayRangeArgs extends PageArgs {
  @Field(() => UUID, { nullable: true })
  dayId?: string;

  @Field(() => LocalDate, { nullable: true, description: 'First day included, YYYY-MM-DD.' })
  startDate?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Last day included, YYYY-MM-DD.' })
  endDate?: string;
}

// ---------------------------------------------------------------- exercises

@ArgsType()
export class ListExercisesArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Exact category, any case.' })
  @OptionalText(EXERCISE_CATEGORY_MAX)
  category?: string;

  @Field(() => String, { nullable: true, description: 'Exercises working this muscle group (any case).' })
  @OptionalText(100)
  muscleGroup?: string;

  @Field(() => Boolean, { nullable: true, description: 'true: only the shared catalog; false: only your own.' })
  @IsOptional()
  @IsBoolean()
  global?: boolean;

  @Field(() => String, { nullable: true, description: 'Name contains this text (any case).' })
  @OptionalText(EXERCISE_NAME_MAX)
  q?: string;
}

@ArgsType()
export class ExerciseIdArgs {
  @Field(() => UUID)
  exerciseId!: string;
}

@ArgsType()
export class CreateExerciseArgs {
  @Field(() => String)
  @RequiredText('name', EXERCISE_NAME_MAX)
  name!: string;

  @Field(() => String)
  @RequiredText('category', EXERCISE_CATEGORY_MAX)
  category!: string;

  @Field(() => [String], { nullable: true, description: 'Stored lower-case; defaults to none.' })
  @IsOptional()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MinLength(1, { each: true, message: 'muscleGroups must not hold empty names' })
  @MaxLength(100, { each: true, message: 'a muscle group name is at most 100 characters' })
  muscleGroups?: string[];

  @Field(() => Boolean, { nullable: true, description: 'Only false is accepted: users add private exercises; the global catalog is the service\'s.' })
  @IsOptional()
  @IsBoolean()
  isGlobal?: boolean;
}

@ArgsType()
export class UpdateExerciseArgs extends ExerciseIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('name')
  @RequiredText('name', EXERCISE_NAME_MAX)
  name?: string;

  @Field(() => String, { nullable: true })
  @IfPresent('category')
  @RequiredText('category', EXERCISE_CATEGORY_MAX)
  category?: string;

  @Field(() => [String], { nullable: true })
  @IfPresent('muscleGroups')
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MinLength(1, { each: true, message: 'muscleGroups must not hold empty names' })
  @MaxLength(100, { each: true, message: 'a muscle group name is at most 100 characters' })
  muscleGroups?: string[];

  @Field(() => Float, {
    nullable: true,
    description: 'Your one-rep max in kg (yours only, also on a global exercise); percent1rm uses it. null clears it.',
  })
  @IsOptional()
  @BoundedNumber(0.001, LOAD_MAX_KG, { number: 'oneRepMax must be a number', min: TRAINING_MESSAGES.positive('oneRepMax') })
  oneRepMax?: number | null;
}

@ArgsType()
export class ExerciseHistoryArgs extends PageArgs {
  @Field(() => UUID)
  exerciseId!: string;
}

/** One session's work on an exercise, for progress charts. */
@ObjectType('ExerciseHistoryEntry', { simpleResolvers: true })
export class ExerciseHistoryEntry {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => ID)
  dayId!: string;

  @Field(() => LocalDate, { description: 'The day of the session.' })
  date!: string;

  @Field(() => DateTimeISO)
  startTime!: Date;

  @Field(() => String)
  split!: string;

  @Field(() => Int, { description: 'Sets of the exercise in the session.' })
  setCount!: number;

  @Field(() => Float, { description: 'Σ reps × load of those sets, kg.' })
  volume!: number;

  @Field(() => Float, { nullable: true, description: 'Best Epley e1RM of those sets, kg; null without a set with reps and load.' })
  bestE1rm!: number | null;
}

// ---------------------------------------------------------------- training sessions

@InputType('TrainingSetInput')
export class TrainingSetInput {
  @Field(() => Int, { nullable: true, description: 'From 1; defaults to the position in the list.' })
  @IsOptional()
  @WholeNumber(1, SET_NUMBER_MAX, { int: TRAINING_MESSAGES.wholeNumber('setNumber'), min: TRAINING_MESSAGES.atLeast('setNumber', 1) })
  setNumber?: number;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @WholeNumber(0, REPS_MAX, { int: TRAINING_MESSAGES.wholeNumber('reps'), min: TRAINING_MESSAGES.notNegative('reps') })
  reps?: number;

  @Field(() => Float, { nullable: true, description: 'Kilograms.' })
  @IsOptional()
  @BoundedNumber(0, LOAD_MAX_KG, { min: TRAINING_MESSAGES.notNegative('load') })
  load?: number;

  @Field(() => Int, { nullable: true, description: 'Reps in reserve, 0-10.' })
  @IsOptional()
  @WholeNumber(0, RIR_MAX, { int: TRAINING_MESSAGES.wholeNumber('rir'), min: TRAINING_MESSAGES.range('rir', 0, RIR_MAX), max: TRAINING_MESSAGES.range('rir', 0, RIR_MAX) })
  rir?: number;

  @Field(() => Int, { nullable: true, description: 'Seconds.' })
  @IsOptional()
  @WholeNumber(0, REST_TIME_MAX, { int: TRAINING_MESSAGES.wholeSeconds('restTime'), min: TRAINING_MESSAGES.notNegative('restTime') })
  restTime?: number;

  @Field(() => Float, { nullable: true, description: 'Rating of perceived exertion, 1-10 in steps of 0.5.' })
  @IsOptional()
  @BoundedNumber(RATING_MIN, RATING_MAX, { number: TRAINING_MESSAGES.number('rpe'), min: TRAINING_MESSAGES.range('rpe', RATING_MIN, RATING_MAX), max: TRAINING_MESSAGES.range('rpe', RATING_MIN, RATING_MAX) })
  @IsHalfStep({ message: TRAINING_MESSAGES.halfStep('rpe') })
  rpe?: number;

  @Field(() => String, { nullable: true, description: 'e.g. 3-1-1-0: eccentric, pause, concentric, pause seconds (X for explosive).' })
  @IsOptional()
  @IsString()
  @Matches(TEMPO_PATTERN, { message: TRAINING_MESSAGES.tempo })
  tempo?: string;

  @Field(() => Int, { nullable: true, description: 'Time under tension, seconds.' })
  @IsOptional()
  @WholeNumber(0, SET_SECONDS_MAX, { int: TRAINING_MESSAGES.wholeSeconds('tut'), min: TRAINING_MESSAGES.notNegative('tut') })
  tut?: number;

  @Field(() => RangeOfMotion, { nullable: true })
  @IsOptional()
  @IsEnum(RangeOfMotion)
  rom?: RangeOfMotion;

  @Field(() => Int, { nullable: true, description: 'Seconds.' })
  @IsOptional()
  @WholeNumber(0, SET_SECONDS_MAX, { int: TRAINING_MESSAGES.wholeSeconds('pauseDuration'), min: TRAINING_MESSAGES.notNegative('pauseDuration') })
  pauseDuration?: number;

  @Field(() => Float, { nullable: true, description: 'Mean concentric velocity, m/s.' })
  @IsOptional()
  @BoundedNumber(0, VELOCITY_MAX, { min: TRAINING_MESSAGES.notNegative('velocity') })
  velocity?: number;

  @Field(() => String, { nullable: true })
  @OptionalText(SET_NOTES_MAX)
  notes?: string;
}

@InputType('TrainingExerciseInput')
export class TrainingExerciseInput {
  @Field(() => UUID, { description: 'An exercise of your catalog (global or your own).' })
  exerciseId!: string;

  @Field(() => [TrainingSetInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(MAX_SETS, { message: TRAINING_MESSAGES.tooManySets })
  @ValidateNested({ each: true })
  sets?: TrainingSetInput[];
}

@ArgsType()
export class TrainingSessionIdArgs {
  @Field(() => UUID)
  sessionId!: string;
}

@ArgsType()
export class CreateTrainingSessionArgs {
  @Field(() => UUID)
  dayId!: string;

  @Field(() => String, { description: 'A weekly split label, e.g. Push.' })
  @RequiredText('split', SPLIT_MAX)
  split!: string;

  @Field(() => DateTimeISO, { nullable: true, description: 'Defaults to now.' })
  startTime?: Date;

  @Field(() => DateTimeISO, { nullable: true })
  endTime?: Date;

  @Field(() => Int, { nullable: true, description: '1-10.' })
  @IsOptional()
  @WholeNumber(RATING_MIN, RATING_MAX, { int: TRAINING_MESSAGES.wholeNumber('sessionRPE'), min: TRAINING_MESSAGES.range('sessionRPE', RATING_MIN, RATING_MAX), max: TRAINING_MESSAGES.range('sessionRPE', RATING_MIN, RATING_MAX) })
  sessionRPE?: number;

  @Field(() => String, { nullable: true })
  @OptionalText(NOTES_MAX)
  notes?: string;

  @Field(() => [TrainingExerciseInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(MAX_EXERCISES, { message: TRAINING_MESSAGES.tooManyExercises })
  @ValidateNested({ each: true })
  exercises?: TrainingExerciseInput[];
}

@ArgsType()
export class UpdateTrainingSessionArgs extends TrainingSessionIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('split')
  @RequiredText('split', SPLIT_MAX)
  split?: string;

  @Field(() => DateTimeISO, { nullable: true })
  @IfPresent('startTime')
  startTime?: Date;

  @Field(() => DateTimeISO, { nullable: true, description: 'null clears it.' })
  endTime?: Date | null;

  @Field(() => Int, { nullable: true, description: '1-10; null clears it.' })
  @IsOptional()
  @WholeNumber(RATING_MIN, RATING_MAX, { int: TRAINING_MESSAGES.wholeNumber('sessionRPE'), min: TRAINING_MESSAGES.range('sessionRPE', RATING_MIN, RATING_MAX), max: TRAINING_MESSAGES.range('sessionRPE', RATING_MIN, RATING_MAX) })
  sessionRPE?: number | null;

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  @OptionalText(NOTES_MAX)
  notes?: string | null;

  @Field(() => [TrainingExerciseInput], { nullable: true, description: 'Replaces every exercise and set of the session.' })
  @IfPresent('exercises')
  @ArrayMaxSize(MAX_EXERCISES, { message: TRAINING_MESSAGES.tooManyExercises })
  @ValidateNested({ each: true })
  exercises?: TrainingExerciseInput[];
}

// ---------------------------------------------------------------- mobility and cardio

@ArgsType()
export class CreateMobilitySessionArgs {
  @Field(() => UUID)
  dayId!: string;

  @Field(() => String)
  @RequiredText('focus', FOCUS_MAX)
  focus!: string;

  @Field(() => Int, { description: 'Minutes, 1-1440.' })
  @WholeNumber(1, DURATION_MAX, { int: TRAINING_MESSAGES.wholeMinutes('duration'), min: TRAINING_MESSAGES.positiveMinutes('duration'), max: TRAINING_MESSAGES.atMostMinutes('duration', DURATION_MAX) })
  duration!: number;

  @Field(() => Int, { description: '1-10.' })
  @WholeNumber(RATING_MIN, RATING_MAX, { int: TRAINING_MESSAGES.wholeNumber('intensity'), min: TRAINING_MESSAGES.range('intensity', RATING_MIN, RATING_MAX), max: TRAINING_MESSAGES.range('intensity', RATING_MIN, RATING_MAX) })
  intensity!: number;
}

@ArgsType()
export class CreateCardioSessionArgs {
  @Field(() => UUID)
  dayId!: string;

  @Field(() => String, { description: 'e.g. run, bike, rowing.' })
  @RequiredText('type', CARDIO_TYPE_MAX)
  type!: string;

  @Field(() => Int, { description: 'Minutes, 1-1440.' })
  @WholeNumber(1, DURATION_MAX, { int: TRAINING_MESSAGES.wholeMinutes('duration'), min: TRAINING_MESSAGES.positiveMinutes('duration'), max: TRAINING_MESSAGES.atMostMinutes('duration', DURATION_MAX) })
  duration!: number;

  @Field(() => Float, { nullable: true, description: 'Kilometres, above 0.' })
  @IsOptional()
  @BoundedNumber(0.001, DISTANCE_MAX_KM, { min: TRAINING_MESSAGES.positive('distance') })
  distance?: number;

  @Field(() => Int, { nullable: true, description: '1-10.' })
  @IsOptional()
  @WholeNumber(RATING_MIN, RATING_MAX, { int: TRAINING_MESSAGES.wholeNumber('intensity'), min: TRAINING_MESSAGES.range('intensity', RATING_MIN, RATING_MAX), max: TRAINING_MESSAGES.range('intensity', RATING_MIN, RATING_MAX) })
  intensity?: number;

  @Field(() => CardioEffort, { nullable: true })
  @IsOptional()
  @IsEnum(CardioEffort)
  effort?: CardioEffort;

  @Field(() => Float, { nullable: true, description: 'Minutes per kilometre, above 0.' })
  @IsOptional()
  @BoundedNumber(0.001, PACE_MAX, { min: TRAINING_MESSAGES.positive('pace') })
  pace?: number;

  @Field(() => Int, { nullable: true, description: 'Beats per minute.' })
  @IsOptional()
  @WholeNumber(1, HEART_RATE_MAX, { min: TRAINING_MESSAGES.positive('averageHeartRate') })
  averageHeartRate?: number;

  @Field(() => Int, { nullable: true, description: 'Beats per minute.' })
  @IsOptional()
  @WholeNumber(1, HEART_RATE_MAX, { min: TRAINING_MESSAGES.positive('maxHeartRate') })
  maxHeartRate?: number;

  @Field(() => Int, { nullable: true, description: 'kcal.' })
  @IsOptional()
  @WholeNumber(1, CALORIES_MAX, { min: TRAINING_MESSAGES.positive('calories') })
  calories?: number;

  @Field(() => Int, { nullable: true, description: 'Metres.' })
  @IsOptional()
  @WholeNumber(0, ELEVATION_GAIN_MAX_M, { min: TRAINING_MESSAGES.notNegative('elevationGain') })
  elevationGain?: number;

  @Field(() => DateTimeISO, { nullable: true, description: 'Defaults to now.' })
  startTime?: Date;

  @Field(() => DateTimeISO, { nullable: true })
  endTime?: Date;

  @Field(() => String, { nullable: true })
  @OptionalText(NOTES_MAX)
  notes?: string;
}

export const ExercisePage = Paginated(Exercise, 'ExercisePage');
export type ExercisePage = InstanceType<typeof ExercisePage>;
export const TrainingSessionPage = Paginated(TrainingSession, 'TrainingSessionPage');
export type TrainingSessionPage = InstanceType<typeof TrainingSessionPage>;
export const MobilitySessionPage = Paginated(MobilitySession, 'MobilitySessionPage');
export type MobilitySessionPage = InstanceType<typeof MobilitySessionPage>;
export const CardioSessionPage = Paginated(CardioSession, 'CardioSessionPage');
export type CardioSessionPage = InstanceType<typeof CardioSessionPage>;
export const ExerciseHistoryPage = Paginated(ExerciseHistoryEntry, 'ExerciseHistoryPage');
export type ExerciseHistoryPage = InstanceType<typeof ExerciseHistoryPage>;
