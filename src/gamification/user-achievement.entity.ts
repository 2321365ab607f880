import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Achievement } from './achievement.entity.js';

/** An achievement a user unlocked; unique per (user, achievement): each unlocks once. */
@Entity({ tableName: 'gamification_user_achievements' })
@Unique({ properties: ['userId', 'achievementId'] })
export class UserAchievement extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @ManyToOne(() => Achievement, { mapToPk: true, deleteRule: 'cascade', fieldName: 'achievement_id' })
  achievementId!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  unlockedAt!: Date;
}
