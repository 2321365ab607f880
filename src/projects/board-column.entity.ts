import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { BaseEntity } from '../core/database/base.entity.js';
import { Project } from './project.entity.js';

/** A column of a project's board; `order` is 0..n-1 without gaps within the board. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'board_columns' })
@Index({ properties: ['projectId', 'order'] })
export class BoardColumn extends BaseEntity {
  @ManyToOne(() => Project, { mapToPk: true, deleteRule: 'cascade', fieldName: 'project_id' })
  projectId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => Int, { description: '0-based position on the board.' })
  @Property({ type: 'integer', fieldName: 'position' })
  order!: number;
}
