import { Entity, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/**
 * The XP ledger: what one action earned, keyed by (user, action, source). A source earns once (the
 * key is unique) and undoing the action deletes exactly its row, so ticking, un-ticking and ticking
 * again earns the XP once and un-ticking leaves nothing.
 */
@Entity({ tableName: 'gamification_xp_grants' })
@Unique({ properties: ['userId', 'action', 'sourceId'] })
export class XpGrant extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  /** task, checklist_item, day, training, cardio, mobility, reading, meditation, journal. */
  @Property({ type: 'string', length: 32 })
  action!: string;

  /** The id of what earned it (a task, a session, a day; `dayId:KEY` for a checklist item). */
  @Property({ type: 'string', length: 100 })
  sourceId!: string;

  @Property({ type: 'integer' })
  xp!: number;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  grantedAt: Opt<Date> = new Date();
}
