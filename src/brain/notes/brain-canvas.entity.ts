import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import { User } from '../../accounts/user.entity.js';
import { BaseEntity } from '../../core/database/base.entity.js';

/** One card on a canvas: a Brain entity placed at (x, y), optionally sized. */
@ObjectType('BrainCanvasCard', { simpleResolvers: true })
export class BrainCanvasCard {
  @Field(() => String, { description: 'note, database, record or form (the search types).' })
  entityType!: string;

  @Field(() => ID)
  entityId!: string;

  @Field(() => Float)
  x!: number;

  @Field(() => Float)
  y!: number;

  @Field(() => Float, { nullable: true })
  w?: number | null;

  @Field(() => Float, { nullable: true })
  h?: number | null;
}

/** A saved board of entity cards (a whiteboard of notes, databases, records, forms). */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'brain_canvas' })
@Index({ properties: ['userId', 'createdAt'] })
export class BrainCanvas extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 200 })
  name!: string;

  @Field(() => [BrainCanvasCard])
  @Property({ type: 'json', columnType: 'jsonb' })
  cards: Opt<BrainCanvasCard[]> = [];
}
