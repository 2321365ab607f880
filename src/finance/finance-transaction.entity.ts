import { Entity, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { VersionedEntity } from '../core/database/versioned.entity.js';
import { LocalDate } from '../core/scalars.js';
import { SocialHappening } from '../social/social-happening.entity.js';
import { FinanceAccount } from './finance-account.entity.js';
import { Money } from '../core/money.js';

/** Money in (positive) or out (negative) of one of the user's accounts on a date. */
@ObjectType('Transaction', { simpleResolvers: true })
@Entity({ tableName: 'finance_transactions' })
@Index({ properties: ['userId', 'date'] })
// A series books each date once: a restart, two instances or a retried booking never make a second occurrence.
@Unique({ properties: ['seriesId', 'occurrenceDate'] })
export class FinanceTransaction extends VersionedEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Index()
  @ManyToOne(() => FinanceAccount, { mapToPk: true, deleteRule: 'cascade', fieldName: 'account_id' })
  accountId!: string;

  @Field(() => Money, { description: 'Expenses negative.' })
  @Property({ type: 'decimal', precision: 15, scale: 2 })
  amount!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 500, nullable: true })
  description?: string | null = null;

  @Field(() => String, { nullable: true, description: 'Free text, for example groceries (lower case).' })
  @Property({ type: 'string', length: 100, nullable: true })
  category?: string | null = null;

  @Field(() => LocalDate, { description: 'YYYY-MM-DD.' })
  @Property({ type: 'date' })
  date!: string;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  recurring: Opt<boolean> = false;

  @Field(() => ID, { nullable: true, description: 'One of your social happenings (null once it is deleted).' })
  @Index()
  @ManyToOne(() => SocialHappening, { mapToPk: true, nullable: true, deleteRule: 'set null', fieldName: 'social_happening_id' })
  socialHappeningId?: string | null = null;

  @Field(() => String, {
    nullable: true,
    description:
      "RFC 5545 RRULE (`FREQ=…;…`, no DTSTART) of the series this transaction starts: each later date is booked into the account's balance on that date (in your time zone). null on booked occurrences and single transactions; null stops the series.",
  })
  @Property({ type: 'text', nullable: true })
  recurrence?: string | null = null;

  @Field(() => ID, { nullable: true, description: "The series' first transaction (its own id on the first); null for a single transaction." })
  @Property({ type: 'uuid', nullable: true })
  seriesId?: string | null = null;

  @Field(() => LocalDate, { nullable: true, description: 'The date of the series this transaction was booked for (its `date` may have been changed since).' })
  @Property({ type: 'date', nullable: true })
  occurrenceDate?: string | null = null;

  @Field(() => LocalDate, { nullable: true, description: 'On a series: the next date to be booked; null once the series has ended or stopped.' })
  @Index()
  @Property({ type: 'date', nullable: true })
  nextDate?: string | null = null;

  /**
   * On a series: the last date its rule can give (UNTIL, or where COUNT ends; core/recurrence lastDate),
   * null when it never ends. Kept with the rule, so reads skip series ended before their range and never
   * count a COUNT rule from its start (issue 34). Not part of the API.
   */
  @Property({ type: 'date', nullable: true })
  recurrenceEnd?: string | null = null;
}
