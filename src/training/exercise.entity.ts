import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/**
 * The exercise catalog, shared by gym and mobility sessions. Global exercises (seeded, `userId` null)
 * are visible to everyone and changed by no one; the others belong to one user.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'exercises' })
@Index({ properties: ['isGlobal', 'name'] })
export class Exercise extends BaseEntity {
  @Index()
  @ManyToOne(() => User, { mapToPk: true, nullable: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId?: string | null = null;

  @Field(() => String)
  @Property({ type: 'string', length: 200 })
  name!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 100 })
  category!: string;

  @Field(() => [String], { description: 'Lower-case muscle group names.' })
  @Property({ type: 'string[]', columnType: 'text[]' })
  muscleGroups: Opt<string[]> = [];

  @Field(() => Boolean, { description: 'Global exercises are shared by every user and cannot be changed.' })
  @Property({ type: 'boolean' })
  isGlobal: Opt<boolean> = false;
}
