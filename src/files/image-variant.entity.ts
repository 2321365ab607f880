import { Entity, Enum, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { VariantName, VariantStatus } from './file-kinds.js';
import { StoredFile } from './stored-file.entity.js';
import { NeverCached } from '../graphql/cacheable-operation.js';

/** One size of an uploaded image (spec: Image variant). Made once per (file, variant). */
@NeverCached() // its URL is signed and expires
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'image_variants' })
@Unique({ properties: ['fileId', 'variant'] })
export class ImageVariant extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @ManyToOne(() => StoredFile, { mapToPk: true, deleteRule: 'cascade', fieldName: 'file_id' })
  fileId!: string;

  @Field(() => VariantName)
  @Enum({ items: () => VariantName, type: 'string' })
  variant!: VariantName;

  @Field(() => VariantStatus)
  @Enum({ items: () => VariantStatus, type: 'string' })
  status!: VariantStatus;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  width?: number | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  height?: number | null = null;

  @Field(() => Int, { description: 'Bytes; 0 for a failed variant.' })
  @Property({ type: 'integer' })
  size!: number;

  @Field(() => String)
  @Property({ type: 'string', length: 200 })
  storageKey!: string;

  @Field(() => String, { nullable: true, description: 'Why the variant could not be made.' })
  @Property({ type: 'text', nullable: true })
  error?: string | null = null;
}
