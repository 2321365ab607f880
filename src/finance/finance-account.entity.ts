import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { Money } from '../core/money.js';

/**
 * A money account (checking, savings, cash, credit card). `balance` is always `openingBalance` plus
 * its transactions: changed only by SQL arithmetic on numeric, in the transaction that changes them.
 */
@ObjectType('FinanceAccount', { simpleResolvers: true })
@Entity({ tableName: 'finance_accounts' })
@Index({ properties: ['userId', 'name'] })
export class FinanceAccount extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 200 })
  name!: string;

  @Field(() => String, { description: 'For example checking, savings, cash, credit_card (lower case).' })
  @Property({ type: 'string', length: 50 })
  type!: string;

  @Field(() => Money, { description: 'openingBalance plus the sum of the transactions.' })
  @Property({ type: 'decimal', precision: 15, scale: 2 })
  balance!: string;

  @Field(() => Money, { description: 'The balance given when the account was created.' })
  @Property({ type: 'decimal', precision: 15, scale: 2 })
  openingBalance!: string;

  @Field(() => String, { description: 'ISO 4217 code, for example EUR.' })
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  isActive: Opt<boolean> = true;
}
