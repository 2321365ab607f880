import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { User } from '../../accounts/user.entity.js';
import { BaseEntity } from '../../core/database/base.entity.js';

/** A Brain tag (`/brain/tags`), apart from the project tags of `/tags`. Names are unique per user, ignoring case. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'brain_tag' })
@Unique({ properties: ['userId', 'nameKey'] })
export class BrainTag extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 100 })
  name!: string;

  /** The name in lower case: the key of uniqueness (Work and work are one tag). */
  @Property({ type: 'string', length: 100, hidden: true })
  nameKey!: string;

  @Field(() => String, { nullable: true, description: 'Hex colour #RRGGBB.' })
  @Property({ type: 'string', length: 7, nullable: true })
  color?: string | null = null;
}
