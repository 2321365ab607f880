import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/**
 * A journal question. Global questions (seeded, `userId` null) are shown to every user and changed by
 * no one; the others belong to one user and come after the global ones, by `order`.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'journal_questions' })
@Index({ properties: ['isGlobal', 'order'] })
export class JournalQuestion extends BaseEntity {
  @Index()
  @ManyToOne(() => User, { mapToPk: true, nullable: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId?: string | null = null;

  @Field(() => String)
  @Property({ type: 'text' })
  question!: string;

  @Field(() => Int, { description: 'Position among the global questions, or among your own (which come after them).' })
  @Property({ type: 'integer' })
  order!: number;

  @Field(() => Boolean, { description: 'Global questions are shared by every user and cannot be changed.' })
  @Property({ type: 'boolean' })
  isGlobal: Opt<boolean> = false;
}
