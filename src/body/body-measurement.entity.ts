import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Day } from '../planning/day.entity.js';

/** A body-composition measurement: at least one of weight, body fat, waist, hip. */
@ObjectType()
@Entity({ tableName: 'body_measurements' })
export class BodyMeasurement extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Index()
  @ManyToOne(() => Day, { mapToPk: true, deleteRule: 'cascade', fieldName: 'day_id' })
  dayId!: string;

  @Field(() => Float, { nullable: true, description: 'Kilograms.' })
  @Property({ type: 'double', nullable: true })
  weight?: number | null = null;

  @Field(() => Float, { nullable: true, description: 'Percent, 0-100.' })
  @Property({ type: 'double', nullable: true })
  bodyFat?: number | null = null;

  @Field(() => Float, { nullable: true, description: 'Centimetres.' })
  @Property({ type: 'double', nullable: true })
  waist?: number | null = null;

  @Field(() => Float, { nullable: true, description: 'Centimetres.' })
  @Property({ type: 'double', nullable: true })
  hip?: number | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null = null;

  @Field(() => DateTimeISO, { description: 'Defaults to when it was logged.' })
  @Index()
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  measuredAt!: Date;
}
