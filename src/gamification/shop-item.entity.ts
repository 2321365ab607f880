import { Entity, Property, Unique } from '@mikro-orm/core';
import { BaseEntity } from '../core/database/base.entity.js';

/** The seeded shop (shop-catalog.seed.ts): cosmetic equipment bought with coins, any number of times. */
@Entity({ tableName: 'gamification_shop_items' })
export class ShopItem extends BaseEntity {
  @Unique()
  @Property({ type: 'string', length: 64 })
  key!: string;

  @Property({ type: 'string', length: 100 })
  name!: string;

  @Property({ type: 'string', length: 300 })
  description!: string;

  /** Where the character wears it: head, body, hand, accessory, pet, consumable. */
  @Property({ type: 'string', length: 32 })
  slot!: string;

  @Property({ type: 'integer' })
  price!: number;

  @Property({ type: 'integer' })
  order!: number;
}
