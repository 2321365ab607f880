import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { DateTimeISO } from '../core/scalars.js';
import { Project } from './project.entity.js';

/** A deadline of one user, optionally of one of their projects. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'deadlines' })
@Index({ properties: ['userId', 'dueDate'] })
export class Deadline extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 300 })
  title!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description?: string | null = null;

  @Field(() => DateTimeISO)
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  dueDate!: Date;

  /** The project's deadlines stay when it is deleted, without a project. */
  @Field(() => ID, { nullable: true })
  @Index()
  @ManyToOne(() => Project, { mapToPk: true, nullable: true, deleteRule: 'set null', fieldName: 'project_id' })
  projectId?: string | null = null;

  @Field(() => String, { description: 'low, medium, high or urgent (default medium).' })
  @Property({ type: 'string', length: 20 })
  priority: Opt<string> = 'medium';

  @Field(() => String, { description: 'pending, in_progress, done or missed (default pending).' })
  @Property({ type: 'string', length: 20 })
  status: Opt<string> = 'pending';
}
