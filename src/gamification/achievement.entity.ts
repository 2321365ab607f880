import { Entity, Property, Unique } from '@mikro-orm/core';
import { BaseEntity } from '../core/database/base.entity.js';

/** The seeded achievement catalog (achievement-catalog.seed.ts); ids derive from the keys. */
@Entity({ tableName: 'gamification_achievements' })
export class Achievement extends BaseEntity {
  @Unique()
  @Property({ type: 'string', length: 64 })
  key!: string;

  @Property({ type: 'string', length: 100 })
  name!: string;

  @Property({ type: 'string', length: 300 })
  description!: string;

  @Property({ type: 'integer' })
  order!: number;
}
