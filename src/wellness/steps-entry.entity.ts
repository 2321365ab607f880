import { Entity, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { DayRecord } from '../planning/day-record.entity.js';

/** A step count reported for a day (e.g. by a phone or watch). */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'steps_entries' })
export class StepsEntry extends DayRecord {
  @Field(() => Int)
  @Property({ type: 'integer' })
  steps!: number;

  @Field(() => DateTimeISO)
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  time!: Date;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null = null;
}
