import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/** A reusable task the user picks into a day's perimeter (3 to 5 a day). */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'perimeter_tasks' })
export class PerimeterTask extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 500 })
  title!: string;

  @Field(() => ID, { nullable: true, description: 'The person this task is about, if any.' })
  @Property({ type: 'uuid', nullable: true })
  personId?: string | null = null;
}
