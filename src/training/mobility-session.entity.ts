import { Entity, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DayRecord } from '../planning/day-record.entity.js';

/** A mobility session; it takes the day's lunch slot (spec rule 2: no cardio that day). */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'mobility_sessions' })
export class MobilitySession extends DayRecord {
  @Field(() => String, { description: 'What the session worked on, e.g. hips.' })
  @Property({ type: 'string', length: 200 })
  focus!: string;

  @Field(() => Int, { description: 'Minutes.' })
  @Property({ type: 'integer' })
  duration!: number;

  @Field(() => Int, { description: '1-10.' })
  @Property({ type: 'smallint' })
  intensity!: number;
}
