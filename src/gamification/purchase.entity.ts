import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { ShopItem } from './shop-item.entity.js';

/** One shop purchase at the price of the moment. */
@Entity({ tableName: 'gamification_purchases' })
@Index({ properties: ['userId', 'createdAt'] })
export class Purchase extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @ManyToOne(() => ShopItem, { mapToPk: true, deleteRule: 'cascade', fieldName: 'item_id' })
  itemId!: string;

  @Property({ type: 'integer' })
  price!: number;
}
