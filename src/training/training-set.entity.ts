import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
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
}
