import { Entity, OneToOne, Property, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/**
 * A user's running totals, one row per user, created on the first fact that concerns gamification.
 * `xp` is always the sum of the user's XP grants (kept in the same transaction as each grant), and the
 * row is the lock that serialises one user's reactions and purchases.
 */
@Entity({ tableName: 'gamification_profiles' })
export class GamificationProfile extends BaseEntity {
  @OneToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id', owner: true, unique: true })
  userId!: string;

  @Property({ type: 'integer' })
  xp: Opt<number> = 0;

  /** The highest level ever reached: `level_up` fires once per level. */
  @Property({ type: 'integer' })
  highestLevel: Opt<number> = 1;

  @Property({ type: 'integer' })
  coinsSpent: Opt<number> = 0;

  @Property({ type: 'integer' })
  checklistStreak: Opt<number> = 0;

  @Property({ type: 'integer' })
  trainingStreak: Opt<number> = 0;
}
