import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { StoredFile } from '../files/stored-file.entity.js';

/** A book of one user's reading list; `currentPage` stays within 0..totalPages. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'books' })
@Index({ properties: ['userId', 'createdAt'] })
export class Book extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 300 })
  title!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 300 })
  author!: string;

  @Field(() => Int)
  @Property({ type: 'integer' })
  totalPages!: number;

  @Field(() => Int, { description: '0..totalPages; reading sessions raise it.' })
  @Property({ type: 'integer' })
  currentPage: Opt<number> = 0;

  /** Spec name for the cover: the id of one of the user's image files (null once that file is deleted). */
  @Field(() => ID, { nullable: true, description: 'The id of one of your image files (see `cover` for its URL).' })
  @Index()
  @ManyToOne(() => StoredFile, { mapToPk: true, nullable: true, deleteRule: 'set null', fieldName: 'cover_file_id' })
  coverUrl?: string | null = null;
}
