import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/** A user's tag for project tasks (`/tags`); the Brain keeps its own tags apart. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'tags' })
@Index({ properties: ['userId', 'createdAt'] })
export class Tag extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Hex colour #RRGGBB.' })
  @Property({ type: 'string', length: 7, nullable: true })
  color?: string | null = null;
}
