import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, Float, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { DayRecord } from '../planning/day-record.entity.js';

/** A body-composition measurement: at least one of weight, body fat, waist, hip. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'body_measurements' })
export class BodyMeasurement extends DayRecord {
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
