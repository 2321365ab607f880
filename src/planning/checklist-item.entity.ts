import { Entity, Enum, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { JSONResolver } from 'graphql-scalars';
import { DateTimeISO } from '../core/scalars.js';
import { User } from '../accounts/user.entity.js';
import { VersionedEntity } from '../core/database/versioned.entity.js';
import { ChecklistKey } from './checklist-key.js';
import { Day } from './day.entity.js';

@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'checklist_items' })
@Unique({ properties: ['dayId', 'key'] })
export class ChecklistItem extends VersionedEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @ManyToOne(() => Day, { mapToPk: true, deleteRule: 'cascade', fieldName: 'day_id' })
  dayId!: string;

  @Field(() => ChecklistKey)
  @Enum({ items: () => ChecklistKey, type: 'string', nativeEnumName: undefined })
  key!: ChecklistKey;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  completed: Opt<boolean> = false;

  @Field(() => JSONResolver, { nullable: true, description: 'Water millilitres, a book id, meditation minutes or a weight.' })
  @Property({ type: 'json', nullable: true })
  value?: unknown = null;

  @Field(() => DateTimeISO, { nullable: true })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  completedAt?: Date | null = null;
}
