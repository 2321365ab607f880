import { Entity, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { DayRecord } from '../planning/day-record.entity.js';

/** A mood and energy check-in; the latest one also sets the day's mood and energy. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'mood_entries' })
export class MoodEntry extends DayRecord {
  @Field(() => Int, { description: '1-10.' })
  @Property({ type: 'smallint' })
  mood!: number;

  @Field(() => Int, { description: '1-10.' })
  @Property({ type: 'smallint' })
  energy!: number;

  @Field(() => DateTimeISO)
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  time!: Date;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null = null;

  /** Not stored: the day's mood and energy this check-in replaced, as `log` answers it (taking it back restores them). */
  replaced?: { mood: number | null; energy: number | null };
}
