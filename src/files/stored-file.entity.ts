import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { JSONObjectResolver } from 'graphql-scalars';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { FileType } from './file-kinds.js';
import { NeverCached } from '../graphql/cacheable-operation.js';
import type { StorageAdapterName } from './storage/storage.js';

/** An uploaded file (spec: File). The blob lives in storage under `storageKey`; the name is metadata only. */
/** Never cached: its `url` and variants' URLs are signed and expire. */
@NeverCached()
@ObjectType('File', { simpleResolvers: true })
@Entity({ tableName: 'files' })
@Index({ properties: ['userId', 'createdAt'] })
export class StoredFile extends BaseEntity {
  @Field(() => ID)
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String, { description: 'The name the client sent, kept as metadata (never used as a path).' })
  @Property({ type: 'text' })
  fileName!: string;

  @Field(() => FileType)
  @Enum({ items: () => FileType, type: 'string' })
  fileType!: FileType;

  @Field(() => String, { description: 'Detected from the bytes, not from the name or the declared type.' })
  @Property({ type: 'string', length: 100 })
  mimeType!: string;

  @Field(() => Int, { description: 'Bytes.' })
  @Property({ type: 'integer' })
  size!: number;

  @Field(() => String, { description: '`<userId>/<fileId>/original`: identifiers only.' })
  @Property({ type: 'string', length: 200 })
  storageKey!: string;

  @Field(() => String, { description: '`disk` or `s3`.' })
  @Property({ type: 'string', length: 10 })
  storageAdapter!: StorageAdapterName;

  @Field(() => Boolean, { description: 'Images get resized variants.' })
  @Property({ type: 'boolean' })
  isImage!: boolean;

  @Field(() => JSONObjectResolver, { nullable: true, description: 'For images: width, height (after EXIF orientation), format.' })
  @Property({ type: 'json', nullable: true })
  metadata?: Record<string, unknown> | null = null;
}
