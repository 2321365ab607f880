import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { VersionedEntity } from '../core/database/versioned.entity.js';
import { DateTimeISO } from '../core/scalars.js';
import { BoardColumn } from './board-column.entity.js';
import { Deadline } from './deadline.entity.js';
import { Project } from './project.entity.js';

/**
 * A card on a project's board: in one column at `order` (0..n-1 without gaps per column); `status`
 * follows the column (todo in the first, done in the last, doing between), kept by the service.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'project_tasks' })
// The agenda reads a user's due dates by range.
@Index({ properties: ['userId', 'dueDate'] })
@Index({ properties: ['columnId', 'order'] })
export class ProjectTask extends VersionedEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Index()
  @ManyToOne(() => Project, { mapToPk: true, deleteRule: 'cascade', fieldName: 'project_id' })
  projectId!: string;

  /** A column holding tasks cannot be removed (the service refuses; the key is the last guard). */
  @Field(() => ID)
  @ManyToOne(() => BoardColumn, { mapToPk: true, deleteRule: 'cascade', fieldName: 'column_id' })
  columnId!: string;

  @Field(() => Int, { description: '0-based position in its column.' })
  @Property({ type: 'integer', fieldName: 'position' })
  order!: number;

  @Field(() => String)
  @Property({ type: 'string', length: 300 })
  title!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description?: string | null = null;

  @Field(() => String, { description: 'todo (first column), doing, or done (last column).' })
  @Property({ type: 'string', length: 10 })
  status: Opt<string> = 'todo';

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  expectedWorkAmount?: number | null = null;

  @Field(() => DateTimeISO, { nullable: true })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  dueDate?: Date | null = null;

  @Field(() => ID, { nullable: true })
  @Index()
  @ManyToOne(() => Deadline, { mapToPk: true, nullable: true, deleteRule: 'set null', fieldName: 'deadline_id' })
  deadlineId?: string | null = null;

  /** Ids of the user's task categories; a trigger of the migration takes a deleted category's id off. */
  @Field(() => [ID])
  @Property({ type: 'string[]', columnType: 'uuid[]' })
  categoryIds: Opt<string[]> = [];

  /** Ids of the user's tags; deleting a tag removes its id here in the same transaction. */
  @Field(() => [ID])
  @Property({ type: 'string[]', columnType: 'uuid[]' })
  tagIds: Opt<string[]> = [];
}
