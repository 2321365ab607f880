import { Index, ManyToOne } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Day } from './day.entity.js';

/**
 * Records of one log (one table) a day may hold: the `enforce_row_cap` trigger (migration
 * 20261124163000) refuses the next with a 400, so every `Day` list is bounded.
 */
export const DAY_ENTRIES_MAX = 100;

/** Training sessions a day may hold: each holds up to 50 exercises of 50 sets, so fewer of them. */
export const DAY_TRAINING_SESSIONS_MAX = 10;

/**
 * A record logged on one of the user's days (a session, a wellness entry, a measurement, a photo):
 * the owner (not exposed) and the day, both deleted with their row. Each subclass keeps its own
 * columns, `time` and `notes` included, where and how it describes them.
 */
@ObjectType({ simpleResolvers: true })
export abstract class DayRecord extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Index()
  @ManyToOne(() => Day, { mapToPk: true, deleteRule: 'cascade', fieldName: 'day_id' })
  dayId!: string;
}
