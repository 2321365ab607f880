import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { RangeOfMotion } from './range-of-motion.js';
import { TrainingExercise } from './training-exercise.entity.js';

/** One set of an exercise in a session. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'training_sets' })
export class TrainingSet extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Index()
  @ManyToOne(() => TrainingExercise, { mapToPk: true, deleteRule: 'cascade', fieldName: 'training_exercise_id' })
  trainingExerciseId!: string;

  @Field(() => Int, { description: 'From 1.' })
  @Property({ type: 'smallint' })
  setNumber!: number;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  reps?: number | null = null;

  @Field(() => Float, { nullable: true, description: 'Load in kilograms.' })
  @Property({ type: 'double', nullable: true })
  load?: number | null = null;

  @Field(() => Int, { nullable: true, description: 'Reps in reserve, 0-10.' })
  @Property({ type: 'smallint', nullable: true })
  rir?: number | null = null;

  @Field(() => Int, { nullable: true, description: 'Rest after the set, in seconds.' })
  @Property({ type: 'integer', nullable: true })
  restTime?: number | null = null;

  @Field(() => Float, { nullable: true, description: 'Rating of perceived exertion, 1-10 in steps of 0.5.' })
  @Property({ type: 'real', nullable: true })
  rpe?: number | null = null;

  @Field(() => String, { nullable: true, description: 'Tempo: eccentric-pause-concentric-pause seconds, e.g. 3-1-1-0 (X for explosive).' })
  @Property({ type: 'string', length: 20, nullable: true })
  tempo?: string | null = null;

  @Field(() => Int, { nullable: true, description: 'Time under tension, in seconds.' })
  @Property({ type: 'integer', nullable: true })
  tut?: number | null = null;

  @Field(() => RangeOfMotion, { nullable: true })
  @Enum({ items: () => RangeOfMotion, type: 'string', nullable: true })
  rom?: RangeOfMotion | null = null;

  @Field(() => Int, { nullable: true, description: 'Pause within the rep, in seconds.' })
  @Property({ type: 'integer', nullable: true })
  pauseDuration?: number | null = null;

  @Field(() => Float, { nullable: true, description: 'Mean concentric velocity, in m/s.' })
  @Property({ type: 'double', nullable: true })
  velocity?: number | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null = null;
}
