import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Exercise } from './exercise.entity.js';
import { TrainingSession } from './training-session.entity.js';

/** One exercise done in a session, in order. Keeps the exercise's name so history survives its deletion. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'training_exercises' })
export class TrainingExercise extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Index()
  @ManyToOne(() => TrainingSession, { mapToPk: true, deleteRule: 'cascade', fieldName: 'session_id' })
  sessionId!: string;

  @Field(() => ID, { nullable: true, description: 'null once the (own) exercise was deleted from the catalog.' })
  @Index()
  @ManyToOne(() => Exercise, { mapToPk: true, nullable: true, deleteRule: 'set null', fieldName: 'exercise_id' })
  exerciseId?: string | null = null;

  @Field(() => String, { description: 'The exercise name when it was logged.' })
  @Property({ type: 'string', length: 200 })
  exerciseName!: string;

  @Field(() => Int, { description: 'Position in the session, from 1.' })
  @Property({ type: 'smallint', fieldName: 'position' })
  order!: number;
}
