import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { DayRecord } from '../planning/day-record.entity.js';
import { CardioEffort } from './cardio-effort.js';

/** A cardio session; it takes the day's lunch slot (spec rule 2: no mobility that day). */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'cardio_sessions' })
// The agenda reads a user's sessions by time range.
@Index({ properties: ['userId', 'startTime'] })
export class CardioSession extends DayRecord {
  @Field(() => String, { description: 'e.g. run, bike, rowing.' })
  @Property({ type: 'string', length: 100 })
  type!: string;

  @Field(() => Int, { description: 'Minutes.' })
  @Property({ type: 'integer' })
  duration!: number;

  @Field(() => Float, { nullable: true, description: 'Kilometres.' })
  @Property({ type: 'double', nullable: true })
  distance?: number | null = null;

  @Field(() => Int, { nullable: true, description: '1-10 (session API).' })
  @Property({ type: 'smallint', nullable: true })
  intensity?: number | null = null;

  @Field(() => CardioEffort, { nullable: true, description: 'easy, zone2 or hard (the Public API intensity).' })
  @Enum({ items: () => CardioEffort, type: 'string', nullable: true })
  effort?: CardioEffort | null = null;

  @Field(() => Float, { nullable: true, description: 'Minutes per kilometre.' })
  @Property({ type: 'double', nullable: true })
  pace?: number | null = null;

  @Field(() => Int, { nullable: true, description: 'Beats per minute.' })
  @Property({ type: 'smallint', nullable: true })
  averageHeartRate?: number | null = null;

  @Field(() => Int, { nullable: true, description: 'Beats per minute.' })
  @Property({ type: 'smallint', nullable: true })
  maxHeartRate?: number | null = null;

  @Field(() => Int, { nullable: true, description: 'kcal.' })
  @Property({ type: 'integer', nullable: true })
  calories?: number | null = null;

  @Field(() => Int, { nullable: true, description: 'Metres.' })
  @Property({ type: 'integer', nullable: true })
  elevationGain?: number | null = null;

  @Field(() => DateTimeISO)
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  startTime!: Date;

  @Field(() => DateTimeISO, { nullable: true })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  endTime?: Date | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null = null;
}
