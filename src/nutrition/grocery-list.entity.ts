import { Entity, Enum, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, Float, ID, ObjectType, registerEnumType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Week } from '../planning/week.entity.js';

/** Where a grocery item came from. */
export enum GrocerySource {
  plan = 'plan',
  carried = 'carried',
  manual = 'manual',
}
registerEnumType(GrocerySource, {
  name: 'GrocerySource',
  description: "plan: the week's cook days; carried: unpurchased last week; manual: added by hand.",
});

/** The shopping list of one week (one per week and user). */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'grocery_lists' })
export class GroceryList extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Unique()
  @ManyToOne(() => Week, { mapToPk: true, deleteRule: 'cascade', fieldName: 'week_id' })
  weekId!: string;
}

@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'grocery_items' })
export class GroceryItem extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Index()
  @ManyToOne(() => GroceryList, { mapToPk: true, deleteRule: 'cascade', fieldName: 'list_id' })
  listId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 200 })
  name!: string;

  @Field(() => Float, { nullable: true })
  @Property({ type: 'double', nullable: true })
  quantity?: number | null = null;

  @Field(() => String)
  @Property({ type: 'string', length: 50 })
  unit: Opt<string> = '';

  @Field(() => String)
  @Property({ type: 'string', length: 100 })
  section: Opt<string> = '';

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  purchased: Opt<boolean> = false;

  @Field(() => GrocerySource)
  @Enum({ items: () => GrocerySource, type: 'string' })
  source!: GrocerySource;

  /** For carried items: the previous week's item, so it is carried once only. */
  @Property({ type: 'uuid', nullable: true })
  carriedFromItemId?: string | null = null;
}
