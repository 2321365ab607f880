import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Exercise } from './exercise.entity.js';

/**
 * A user's own settings for one exercise of their catalog, global or own. Kept apart from the exercise
 * row so that a value set on a shared (global) exercise stays the user's and changes nothing for others.
 */
@Entity({ tableName: 'exercise_settings' })
@Unique({ properties: ['userId', 'exerciseId'] })
export class ExerciseSetting extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @ManyToOne(() => Exercise, { mapToPk: true, deleteRule: 'cascade', fieldName: 'exercise_id' })
  exerciseId!: string;

  /** A known one-repetition maximum in kilograms; percent1rm uses it instead of the 90-day best e1RM. */
  @Property({ type: 'double', nullable: true })
  oneRepMax?: number | null = null;
}
