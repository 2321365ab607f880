import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { VersionedEntity } from '../core/database/versioned.entity.js';
import { LocalDate } from '../core/scalars.js';
import { StoredFile } from '../files/stored-file.entity.js';

/** A person of one user's circle (a contact in a personal CRM). */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'people' })
@Index({ properties: ['userId', 'name'] })
export class Person extends VersionedEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 200 })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Free text, for example friend, family, colleague.' })
  @Property({ type: 'string', length: 50, nullable: true })
  relationshipType?: string | null = null;

  /** Spec name for the picture: the id of one of the user's image files (null once that file is deleted). */
  @Field(() => ID, { nullable: true, description: 'The id of one of your image files (see `picture` for its URLs).' })
  @Index()
  @ManyToOne(() => StoredFile, { mapToPk: true, nullable: true, deleteRule: 'set null', fieldName: 'picture_file_id' })
  pictureUrl?: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null = null;

  @Field(() => LocalDate, { nullable: true, description: 'Birthday (YYYY-MM-DD; the year may be a guess): a yearly agenda entry, and what a birthday reminder is about.' })
  @Property({ type: 'date', nullable: true })
  birthday?: string | null = null;
}
