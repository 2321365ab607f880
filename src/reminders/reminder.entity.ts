import { Entity, Enum, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { DAILY_KIND_INDEX_SQL } from './daily-kinds.js';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { DateTimeISO } from '../core/scalars.js';
import { REMINDER_CHANNELS, REMINDER_KINDS, type ReminderChannelName, type ReminderKindName } from './reminder-kind.js';

/** The kinds and channels as enum objects (GraphQL enums, database checks), one value per name. */
export const ReminderKindValue = Object.fromEntries(REMINDER_KINDS.map((k) => [k, k])) as { [K in ReminderKindName]: K };
export const ReminderChannelValue = Object.fromEntries(REMINDER_CHANNELS.map((c) => [c, c])) as { [C in ReminderChannelName]: C };

registerEnumType(ReminderKindValue, {
  name: 'ReminderKind',
  description:
    'task_start (offsetMinutes before a task starts), task_at_time (localTime on the task\'s day), deadline, happening (offsetMinutes before), ' +
    'birthday (localTime on the day), bedtime_in_bed, bedtime_lights_out (offsetMinutes before the target), morning_brief (at localTime, else at the wake target), evening_review (localTime), ' +
    'habit (localTime on each day the habit is due and not done).',
});
registerEnumType(ReminderChannelValue, {
  name: 'ReminderChannel',
  description: 'web_push (every registered push subscription), email (the account address), push_url (an HTTP POST to the notification settings\' pushUrl).',
});

/**
 * A reminder the user asked for. `nextDueAt` is when its next occurrence is due (null: none left), and
 * `nextOccurrenceKey` names that occurrence; the scanner claims rows with `active and next_due_at <= now()`
 * through the partial index below, so one indexed scan serves every user (no job per reminder).
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'reminders' })
@Index({ properties: ['userId', 'createdAt'] })
@Index({
  name: 'reminders_due_index',
  expression: 'create index "reminders_due_index" on "reminders" ("next_due_at") where "active" and "next_due_at" is not null',
})
@Index({ name: 'reminders_one_per_daily_kind', expression: DAILY_KIND_INDEX_SQL })
export class Reminder extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ReminderKindValue)
  @Enum({ items: () => ReminderKindValue, type: 'string' })
  kind!: ReminderKindName;

  @Field(() => ID, { nullable: true, description: 'The task, deadline, happening, person or habit it is about; null for the daily kinds.' })
  @Property({ type: 'uuid', nullable: true })
  targetId?: string | null = null;

  @Field(() => ReminderChannelValue)
  @Enum({ items: () => ReminderChannelValue, type: 'string' })
  channel!: ReminderChannelName;

  @Field(() => Int, { description: 'Minutes before the moment (task start, deadline, happening, bedtime target); 0 = at it.' })
  @Property({ type: 'integer' })
  offsetMinutes: Opt<number> = 0;

  @Field(() => String, { nullable: true, description: "HH:MM in the user's time zone, for the kinds at a time of day." })
  @Property({ type: 'string', length: 5, nullable: true })
  localTime?: string | null = null;

  @Field(() => Boolean, { description: 'false pauses the reminder: nothing is sent until it is set true again.' })
  @Property({ type: 'boolean' })
  active: Opt<boolean> = true;

  @Field(() => DateTimeISO, { nullable: true, description: 'When the next occurrence is due (quiet hours may hold it); null: no occurrence left.' })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  nextDueAt?: Date | null = null;

  /** The idempotency key of the next occurrence (its delivery is unique per reminder and key). */
  @Property({ type: 'string', length: 100, nullable: true, hidden: true })
  nextOccurrenceKey?: string | null = null;
}
