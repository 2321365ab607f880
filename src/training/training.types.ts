import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import {
  ArrayMaxSize,
  IsBoolean,
  IsEnum,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
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
import { NOT_BLANK } from '../core/validation/text.js';

export const NOTES_MAX = 10_000;
/** A session lasts at most a day. */
export const DURATION_MAX = 1_440;
export const MAX_EXERCISES = 50;
export const MAX_SETS = 50;

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
  @IsOptional()
  @IsString()
  @MaxLength(100)
  category?: string;

  @Field(() => String, { nullable: true, description: 'Exercises working this muscle group (any case).' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  muscleGroup?: string;

  @Field(() => Boolean, { nullable: true, description: 'true: only the shared catalog; false: only your own.' })
  @IsOptional()
  @IsBoolean()
  global?: boolean;

  @Field(() => String, { nullable: true, description: 'Name contains this text (any case).' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
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
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(200, { message: 'name must be at most 200 characters' })
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  name!: string;

  @Field(() => String)
  @IsString()
  @MinLength(1, { message: 'category must not be empty' })
  @MaxLength(100, { message: 'category must be at most 100 characters' })
  @Matches(NOT_BLANK, { message: 'category must not be blank' })
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
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(200, { message: 'name must be at most 200 characters' })
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  name?: string;

  @Field(() => String, { nullable: true })
  @IfPresent('category')
  @IsString()
  @MinLength(1, { message: 'category must not be empty' })
  @MaxLength(100, { message: 'category must be at most 100 characters' })
  @Matches(NOT_BLANK, { message: 'category must not be blank' })
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
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'oneRepMax must be a number' })
  @Min(0.001, { message: 'oneRepMax must be positive' })
  @Max(LOAD_MAX_KG)
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
  @IsInt({ message: 'setNumber must be a whole number' })
  @Min(1, { message: 'setNumber must be at least 1' })
  @Max(SET_NUMBER_MAX)
  setNumber?: number;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt({ message: 'reps must be a whole number' })
  @Min(0, { message: 'reps must not be negative' })
  @Max(REPS_MAX)
  reps?: number;

  @Field(() => Float, { nullable: true, description: 'Kilograms.' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0, { message: 'load must not be negative' })
  @Max(LOAD_MAX_KG)
  load?: number;

  @Field(() => Int, { nullable: true, description: 'Reps in reserve, 0-10.' })
  @IsOptional()
  @IsInt({ message: 'rir must be a whole number' })
  @Min(0, { message: 'rir must be 0 to 10' })
  @Max(10, { message: 'rir must be 0 to 10' })
  rir?: number;

  @Field(() => Int, { nullable: true, description: 'Seconds.' })
  @IsOptional()
  @IsInt({ message: 'restTime must be whole seconds' })
  @Min(0, { message: 'restTime must not be negative' })
  @Max(86_400)
  restTime?: number;

  @Field(() => Float, { nullable: true, description: 'Rating of perceived exertion, 1-10 in steps of 0.5.' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'rpe must be a number' })
  @Min(1, { message: 'rpe must be 1 to 10' })
  @Max(10, { message: 'rpe must be 1 to 10' })
  @IsHalfStep({ message: 'rpe must be in steps of 0.5' })
  rpe?: number;

  @Field(() => String, { nullable: true, description: 'e.g. 3-1-1-0: eccentric, pause, concentric, pause seconds (X for explosive).' })
  @IsOptional()
  @IsString()
  @Matches(TEMPO_PATTERN, { message: 'tempo must look like 3-1-1-0 (three or four phases of seconds or X)' })
  tempo?: string;

  @Field(() => Int, { nullable: true, description: 'Time under tension, seconds.' })
  @IsOptional()
  @IsInt({ message: 'tut must be whole seconds' })
  @Min(0, { message: 'tut must not be negative' })
  @Max(SET_SECONDS_MAX)
  tut?: number;

  @Field(() => RangeOfMotion, { nullable: true })
  @IsOptional()
  @IsEnum(RangeOfMotion)
  rom?: RangeOfMotion;

  @Field(() => Int, { nullable: true, description: 'Seconds.' })
  @IsOptional()
  @IsInt({ message: 'pauseDuration must be whole seconds' })
  @Min(0, { message: 'pauseDuration must not be negative' })
  @Max(SET_SECONDS_MAX)
  pauseDuration?: number;

  @Field(() => Float, { nullable: true, description: 'Mean concentric velocity, m/s.' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0, { message: 'velocity must not be negative' })
  @Max(VELOCITY_MAX)
  velocity?: number;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(SET_NOTES_MAX)
  notes?: string;
}

@InputType('TrainingExerciseInput')
export class TrainingExerciseInput {
  @Field(() => UUID, { description: 'An exercise of your catalog (global or your own).' })
  exerciseId!: string;

  @Field(() => [TrainingSetInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(MAX_SETS, { message: `at most ${MAX_SETS} sets per exercise` })
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
  @IsString()
  @MinLength(1, { message: 'split must not be empty' })
  @MaxLength(100, { message: 'split must be at most 100 characters' })
  @Matches(NOT_BLANK, { message: 'split must not be blank' })
  split!: string;

  @Field(() => DateTimeISO, { nullable: true, description: 'Defaults to now.' })
  startTime?: Date;

  @Field(() => DateTimeISO, { nullable: true })
  endTime?: Date;

  @Field(() => Int, { nullable: true, description: '1-10.' })
  @IsOptional()
  @IsInt({ message: 'sessionRPE must be a whole number' })
  @Min(1, { message: 'sessionRPE must be 1 to 10' })
  @Max(10, { message: 'sessionRPE must be 1 to 10' })
  sessionRPE?: number;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(NOTES_MAX)
  notes?: string;

  @Field(() => [TrainingExerciseInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(MAX_EXERCISES, { message: `at most ${MAX_EXERCISES} exercises per session` })
  @ValidateNested({ each: true })
  exercises?: TrainingExerciseInput[];
}

@ArgsType()
export class UpdateTrainingSessionArgs extends TrainingSessionIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('split')
  @IsString()
  @MinLength(1, { message: 'split must not be empty' })
  @MaxLength(100, { message: 'split must be at most 100 characters' })
  @Matches(NOT_BLANK, { message: 'split must not be blank' })
  split?: string;

  @Field(() => DateTimeISO, { nullable: true })
  @IfPresent('startTime')
  startTime?: Date;

  @Field(() => DateTimeISO, { nullable: true, description: 'null clears it.' })
  endTime?: Date | null;

  @Field(() => Int, { nullable: true, description: '1-10; null clears it.' })
  @IsOptional()
  @IsInt({ message: 'sessionRPE must be a whole number' })
  @Min(1, { message: 'sessionRPE must be 1 to 10' })
  @Max(10, { message: 'sessionRPE must be 1 to 10' })
  sessionRPE?: number | null;

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  @IsOptional()
  @IsString()
  @MaxLength(NOTES_MAX)
  notes?: string | null;

  @Field(() => [TrainingExerciseInput], { nullable: true, description: 'Replaces every exercise and set of the session.' })
  @IfPresent('exercises')
  @ArrayMaxSize(MAX_EXERCISES, { message: `at most ${MAX_EXERCISES} exercises per session` })
  @ValidateNested({ each: true })
  exercises?: TrainingExerciseInput[];
}

// ---------------------------------------------------------------- mobility and cardio

@ArgsType()
export class CreateMobilitySessionArgs {
  @Field(() => UUID)
  dayId!: string;

  @Field(() => String)
  @IsString()
  @MinLength(1, { message: 'focus must not be empty' })
  @MaxLength(200, { message: 'focus must be at most 200 characters' })
  @Matches(NOT_BLANK, { message: 'focus must not be blank' })
  focus!: string;

  @Field(() => Int, { description: 'Minutes, 1-1440.' })
  @IsInt({ message: 'duration must be whole minutes' })
  @Min(1, { message: 'duration must be a positive number of minutes' })
  @Max(DURATION_MAX, { message: `duration must be at most ${DURATION_MAX} minutes` })
  duration!: number;

  @Field(() => Int, { description: '1-10.' })
  @IsInt({ message: 'intensity must be a whole number' })
  @Min(1, { message: 'intensity must be 1 to 10' })
  @Max(10, { message: 'intensity must be 1 to 10' })
  intensity!: number;
}

@ArgsType()
export class CreateCardioSessionArgs {
  @Field(() => UUID)
  dayId!: string;

  @Field(() => String, { description: 'e.g. run, bike, rowing.' })
  @IsString()
  @MinLength(1, { message: 'type must not be empty' })
  @MaxLength(100, { message: 'type must be at most 100 characters' })
  @Matches(NOT_BLANK, { message: 'type must not be blank' })
  type!: string;

  @Field(() => Int, { description: 'Minutes, 1-1440.' })
  @IsInt({ message: 'duration must be whole minutes' })
  @Min(1, { message: 'duration must be a positive number of minutes' })
  @Max(DURATION_MAX, { message: `duration must be at most ${DURATION_MAX} minutes` })
  duration!: number;

  @Field(() => Float, { nullable: true, description: 'Kilometres, above 0.' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.001, { message: 'distance must be positive' })
  @Max(DISTANCE_MAX_KM)
  distance?: number;

  @Field(() => Int, { nullable: true, description: '1-10.' })
  @IsOptional()
  @IsInt({ message: 'intensity must be a whole number' })
  @Min(1, { message: 'intensity must be 1 to 10' })
  @Max(10, { message: 'intensity must be 1 to 10' })
  intensity?: number;

  @Field(() => CardioEffort, { nullable: true })
  @IsOptional()
  @IsEnum(CardioEffort)
  effort?: CardioEffort;

  @Field(() => Float, { nullable: true, description: 'Minutes per kilometre, above 0.' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.001, { message: 'pace must be positive' })
  @Max(PACE_MAX)
  pace?: number;

  @Field(() => Int, { nullable: true, description: 'Beats per minute.' })
  @IsOptional()
  @IsInt()
  @Min(1, { message: 'averageHeartRate must be positive' })
  @Max(HEART_RATE_MAX)
  averageHeartRate?: number;

  @Field(() => Int, { nullable: true, description: 'Beats per minute.' })
  @IsOptional()
  @IsInt()
  @Min(1, { message: 'maxHeartRate must be positive' })
  @Max(HEART_RATE_MAX)
  maxHeartRate?: number;

  @Field(() => Int, { nullable: true, description: 'kcal.' })
  @IsOptional()
  @IsInt()
  @Min(1, { message: 'calories must be positive' })
  @Max(CALORIES_MAX)
  calories?: number;

  @Field(() => Int, { nullable: true, description: 'Metres.' })
  @IsOptional()
  @IsInt()
  @Min(0, { message: 'elevationGain must not be negative' })
  @Max(ELEVATION_GAIN_MAX_M)
  elevationGain?: number;

  @Field(() => DateTimeISO, { nullable: true, description: 'Defaults to now.' })
  startTime?: Date;

  @Field(() => DateTimeISO, { nullable: true })
  endTime?: Date;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(NOTES_MAX)
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
