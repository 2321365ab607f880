import { Entity, OneToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Money } from '../core/money.js';

export const DEFAULT_SPLIT_LABELS = ['Push', 'Pull', 'Legs', 'Arms'];
export const DEFAULT_TIMEZONE = 'UTC';
/** How long a deleted record stays restorable (docs/trash.md): 30 days unless the person chooses 1-365. */
export const DEFAULT_TRASH_RETENTION_DAYS = 30;
export const MAX_TRASH_RETENTION_DAYS = 365;

/** Defaults chosen for a 7-8 h night; a stress week goes to bed half an hour earlier. */
export const DEFAULT_BEDTIMES = {
  wakeTime: '07:00',
  inBedTime: '22:30',
  lightsOutTime: '23:00',
  stressWeekWakeTime: '07:00',
  stressWeekInBedTime: '22:00',
  stressWeekLightsOutTime: '22:30',
} as const;

/** Week settings of the spec plus the user's time zone (operations.md: "today" is the user's today). */
@ObjectType('Settings', { simpleResolvers: true })
@Entity({ tableName: 'user_settings' })
export class UserSettings extends BaseEntity {
  @OneToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id', owner: true, unique: true })
  userId!: string;

  @Field(() => [String])
  @Property({ type: 'json' })
  weeklySplitLabels: Opt<string[]> = [...DEFAULT_SPLIT_LABELS];

  @Field(() => String)
  @Property({ type: 'string', length: 5 })
  wakeTime: Opt<string> = DEFAULT_BEDTIMES.wakeTime;

  @Field(() => String)
  @Property({ type: 'string', length: 5 })
  inBedTime: Opt<string> = DEFAULT_BEDTIMES.inBedTime;

  @Field(() => String)
  @Property({ type: 'string', length: 5 })
  lightsOutTime: Opt<string> = DEFAULT_BEDTIMES.lightsOutTime;

  @Field(() => String)
  @Property({ type: 'string', length: 5 })
  stressWeekWakeTime: Opt<string> = DEFAULT_BEDTIMES.stressWeekWakeTime;

  @Field(() => String)
  @Property({ type: 'string', length: 5 })
  stressWeekInBedTime: Opt<string> = DEFAULT_BEDTIMES.stressWeekInBedTime;

  @Field(() => String)
  @Property({ type: 'string', length: 5 })
  stressWeekLightsOutTime: Opt<string> = DEFAULT_BEDTIMES.stressWeekLightsOutTime;

  @Field(() => String, { description: 'IANA time zone that decides which day is "today".' })
  @Property({ type: 'string', length: 64 })
  timezone: Opt<string> = DEFAULT_TIMEZONE;

  /** For the agenda: an expense of at least this much (absolute value) counts as large. */
  @Field(() => Money, { description: 'An expense of at least this much (absolute value) is "large" in the agenda; default 100.' })
  @Property({ type: 'decimal', precision: 15, scale: 2, default: '100' })
  largeExpenseThreshold: Opt<string> = '100';

  @Field(() => Int, { description: 'Days a deleted record stays in the trash, restorable, before the purge deletes it for good (1-365, default 30).' })
  @Property({ type: 'smallint', default: DEFAULT_TRASH_RETENTION_DAYS })
  trashRetentionDays: Opt<number> = DEFAULT_TRASH_RETENTION_DAYS;
}
