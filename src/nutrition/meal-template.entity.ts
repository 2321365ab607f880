import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { StoredFile } from '../files/stored-file.entity.js';

/** One ingredient of a template; `quantity` is for one batch (one cook). */
@ObjectType({ simpleResolvers: true })
export class Ingredient {
  @Field(() => String)
  name!: string;

  @Field(() => Float, { nullable: true, description: 'Above 0; null for "to taste".' })
  quantity!: number | null;

  @Field(() => String, { description: 'e.g. g, ml, pcs; may be empty.' })
  unit!: string;

  @Field(() => String, { description: 'Shop section, e.g. produce; may be empty.' })
  section!: string;
}

/** A reusable meal (recipe) a dinner plan points to; its ingredients feed the grocery list. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'meal_templates' })
@Index({ properties: ['userId', 'createdAt'] })
export class MealTemplate extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 200 })
  name!: string;

  @Field(() => [Ingredient])
  @Property({ type: 'json' })
  ingredients: Ingredient[] = [];

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  instructions?: string | null = null;

  @Field(() => ID, { nullable: true, description: 'An image file of yours (POST /files/upload); cleared when the file is deleted.' })
  @ManyToOne(() => StoredFile, { mapToPk: true, nullable: true, deleteRule: 'set null', fieldName: 'image_file_id' })
  imageFileId?: string | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'smallint', nullable: true })
  servings?: number | null = null;
}
