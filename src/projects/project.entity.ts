import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/** A project of one user; its kanban board is its columns (board-column.entity.ts), made with it. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'projects' })
@Index({ properties: ['userId', 'createdAt'] })
export class Project extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 300 })
  title!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description?: string | null = null;

  @Field(() => String, { description: 'Free text such as work or personal (default personal).' })
  @Property({ type: 'string', length: 50 })
  type: Opt<string> = 'personal';

  @Field(() => String, { description: 'active, on_hold, completed or archived (default active).' })
  @Property({ type: 'string', length: 20 })
  status: Opt<string> = 'active';
}
