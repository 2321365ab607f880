import { Entity, Enum, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { DateTimeISO } from '../core/scalars.js';
import type { ReminderChannelName } from './reminder-kind.js';
import { Reminder, ReminderChannelValue } from './reminder.entity.js';

export enum ReminderDeliveryStatus {
  pending = 'pending',
  sent = 'sent',
  skipped = 'skipped',
  failed = 'failed',
}
registerEnumType(ReminderDeliveryStatus, {
  name: 'ReminderDeliveryStatus',
  description:
    'pending (due, held by quiet hours, or being sent), sent, skipped (the occurrence was no longer due: its task done or deleted, the reminder paused), failed (no destination, refused, or out of attempts).',
});

/**
 * One occurrence of a reminder, made when the scanner claims it: unique per (reminder, occurrence key),
 * the idempotency key, so no instance, restart or retry makes an occurrence twice. `nextAttemptAt` is
 * when it may be sent (its due time, or the end of quiet hours) and, while an instance sends it, the
 * lease: after it, a sweep takes the delivery over (a crash between commit and send).
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'reminder_deliveries' })
@Unique({ properties: ['reminderId', 'occurrenceKey'] })
@Index({ properties: ['reminderId', 'dueAt'] })
@Index({
  name: 'reminder_deliveries_pending_index',
  expression: 'create index "reminder_deliveries_pending_index" on "reminder_deliveries" ("next_attempt_at") where "status" = \'pending\'',
})
export class ReminderDelivery extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @ManyToOne(() => Reminder, { mapToPk: true, deleteRule: 'cascade', fieldName: 'reminder_id' })
  reminderId!: string;

  @Field(() => String, { description: 'Names the occurrence once and for all (e.g. the date): the idempotency key.' })
  @Property({ type: 'string', length: 100 })
  occurrenceKey!: string;

  @Field(() => DateTimeISO, { description: 'When the occurrence was due.' })
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  dueAt!: Date;

  @Field(() => ReminderChannelValue)
  @Enum({ items: () => ReminderChannelValue, type: 'string' })
  channel!: ReminderChannelName;

  @Field(() => ReminderDeliveryStatus)
  @Enum({ items: () => ReminderDeliveryStatus, type: 'string' })
  status: Opt<ReminderDeliveryStatus> = ReminderDeliveryStatus.pending;

  @Field(() => Int)
  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  @Field(() => DateTimeISO, { nullable: true, description: 'Pending: when it may be sent next (or the lease of the instance sending it).' })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  nextAttemptAt?: Date | null = null;

  @Field(() => DateTimeISO, { nullable: true, description: 'When quiet hours held it until (null: not held).' })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  heldUntil?: Date | null = null;

  @Field(() => DateTimeISO, { nullable: true })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  sentAt?: Date | null = null;

  @Field(() => DateTimeISO, { nullable: true, description: 'When it was given up (failed) or skipped.' })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  failedAt?: Date | null = null;

  @Field(() => String, { nullable: true, description: 'Why it failed or was skipped, or what the last attempt met.' })
  @Property({ type: 'text', nullable: true })
  error?: string | null = null;
}
