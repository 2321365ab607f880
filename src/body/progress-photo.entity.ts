import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { StoredFile } from '../files/stored-file.entity.js';
import { DayRecord } from '../planning/day-record.entity.js';

/** Spec, Body composition: the pose of a progress photo. */
export enum PhotoPose {
  front = 'front',
  side = 'side',
  back = 'back',
  other = 'other',
}
registerEnumType(PhotoPose, { name: 'PhotoPose' });

/** A progress photo: an uploaded image on one of the user's days. Deleting the file deletes the photo. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'progress_photos' })
export class ProgressPhoto extends DayRecord {
  @Field(() => ID)
  @Index()
  @ManyToOne(() => StoredFile, { mapToPk: true, deleteRule: 'cascade', fieldName: 'file_id' })
  fileId!: string;

  @Field(() => PhotoPose)
  @Enum({ items: () => PhotoPose, type: 'string' })
  pose!: PhotoPose;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null = null;
}
