import { Entity, Property } from '@mikro-orm/core';
import { Field, Float, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { DayRecord } from '../planning/day-record.entity.js';

/** Water drunk, in millilitres. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'water_intakes' })
export class WaterIntake extends DayRecord {
  @Field(() => Float, { description: 'Millilitres.' })
  @Property({ type: 'double' })
  volume!: number;

  @Field(() => DateTimeISO, { description: 'When it was drunk (defaults to when it was logged).' })
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  time!: Date;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null = null;
}
