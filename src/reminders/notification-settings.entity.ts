import { Entity, OneToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/** Where and when reminders may reach a user: the push URL (ntfy style) and quiet hours. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'notification_settings' })
export class NotificationSettings extends BaseEntity {
  @OneToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id', owner: true, unique: true })
  userId!: string;

  @Field(() => String, { nullable: true, description: 'http(s) URL the push_url channel POSTs to (ntfy style: the text as body, a Title header).' })
  @Property({ type: 'text', nullable: true })
  pushUrl?: string | null = null;

  @Field(() => String, { nullable: true, description: 'HH:MM local: quiet hours start (with quietHoursEnd; across midnight when after it).' })
  @Property({ type: 'string', length: 5, nullable: true })
  quietHoursStart?: string | null = null;

  @Field(() => String, { nullable: true, description: 'HH:MM local: quiet hours end; a reminder falling in them is held until then.' })
  @Property({ type: 'string', length: 5, nullable: true })
  quietHoursEnd?: string | null = null;

  /** The minute the send budget counts (send-budget.queries.ts); not part of the API. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  sendMinute?: Date | null = null;

  /** Reminder sends started in `sendMinute`, all channels together (at most REMINDER_SENDS_PER_MINUTE). */
  @Property({ type: 'integer', default: 0 })
  sendsInMinute: Opt<number> = 0;
}
