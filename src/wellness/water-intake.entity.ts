import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Day } from '../planning/day.entity.js';

/** Water drunk, in millilitres. */
@ObjectType()
@Entity({ tableName: 'water_intakes' })
export class WaterIntake extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Index()
  @ManyToOne(() => Day, { mapToPk: true, deleteRule: 'cascade', fieldName: 'day_id' })
  dayId!: string;

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
