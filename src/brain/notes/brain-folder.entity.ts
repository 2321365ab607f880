import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { User } from '../../accounts/user.entity.js';
import { BaseEntity } from '../../core/database/base.entity.js';

/**
 * A folder of Brain notes. Folders nest through `parentId` (null: at the top). A folder is deleted only
 * when empty (no notes, no sub-folders): the service refuses, and the restricting key is the last guard.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'brain_folder' })
@Index({ properties: ['userId', 'parentId'] })
export class BrainFolder extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 200 })
  name!: string;

  @Field(() => ID, { nullable: true, description: 'The folder holding this one; null at the top.' })
  @Index()
  @ManyToOne(() => BrainFolder, { mapToPk: true, nullable: true, deleteRule: 'restrict', fieldName: 'parent_id' })
  parentId?: string | null = null;
}
