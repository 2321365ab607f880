import { ExpectedVersion } from '../core/validation/expected-version.js';
import { ArgsType, Field } from 'type-graphql';
import { IsString, Matches } from 'class-validator';
import { PageArgs, Paginated } from '../core/pagination.js';
import { LocalDate, UUID } from '../core/scalars.js';
import { IfPresent } from '../core/validation/if-present.js';
import { FinanceAccount } from './finance-account.entity.js';
import { FinanceTransaction } from './finance-transaction.entity.js';
import { Money } from '../core/money.js';
import { OptionalText, RequiredText } from '../core/validation/text.js';
import { RECURRENCE_RULE_MAX } from '../core/recurrence/recurrence.js';

export const NAME_MAX = 200;
export const TYPE_MAX = 50;
export const DESCRIPTION_MAX = 500;
export const CATEGORY_MAX = 100;
const CURRENCY_SHAPE = /^[A-Za-z]{3}$/;

// ---------------------------------------------------------------- accounts

@ArgsType()
export class ListAccountsArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Exact type, any case.' })
  @OptionalText(TYPE_MAX)
  type?: string;

  @Field(() => Boolean, { nullable: true })
  isActive?: boolean;
}

@ArgsType()
export class AccountIdArgs {
  @Field(() => UUID)
  accountId!: string;
}

@ArgsType()
export class CreateAccountArgs {
  @Field(() => String)
  @RequiredText('name', NAME_MAX)
  name!: string;

  @Field(() => String, { description: 'For example checking, savings, cash, credit_card.' })
  @RequiredText('type', TYPE_MAX)
  type!: string;

  @Field(() => Money, { nullable: true, description: 'The opening balance (default 0).' })
  balance?: string | null;

  @Field(() => String, { description: 'ISO 4217 code, for example EUR (any case; stored upper case).' })
  @IsString()
  @Matches(CURRENCY_SHAPE, { message: 'currency must be an ISO 4217 code such as EUR' })
  currency!: string;

  @Field(() => Boolean, { nullable: true, description: 'Default true.' })
  isActive?: boolean | null;
}

@ArgsType()
export class UpdateAccountArgs extends AccountIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('name')
  @RequiredText('name', NAME_MAX)
  name?: string;

  @Field(() => String, { nullable: true })
  @IfPresent('type')
  @RequiredText('type', TYPE_MAX)
  type?: string;

  @Field(() => String, { nullable: true, description: 'ISO 4217 code.' })
  @IfPresent('currency')
  @IsString()
  @Matches(CURRENCY_SHAPE, { message: 'currency must be an ISO 4217 code such as EUR' })
  currency?: string;

  @Field(() => Boolean, { nullable: true })
  @IfPresent('isActive')
  isActive?: boolean;
}

export const AccountPage = Paginated(FinanceAccount, 'FinanceAccountPage');
export type AccountPage = InstanceType<typeof AccountPage>;

// ---------------------------------------------------------------- transactions

@ArgsType()
export class ListTransactionsArgs extends PageArgs {
  @Field(() => UUID, { nullable: true, description: 'Only this account of yours.' })
  accountId?: string;

  @Field(() => LocalDate, { nullable: true, description: 'First date included, YYYY-MM-DD.' })
  startDate?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Last date included, YYYY-MM-DD.' })
  endDate?: string;

  @Field(() => String, { nullable: true, description: 'Exact category, any case.' })
  @OptionalText(CATEGORY_MAX)
  category?: string;
}

@ArgsType()
export class TransactionIdArgs {
  @Field(() => UUID)
  transactionId!: string;
}

/** A delete that may name the `version` last read (docs/concurrency.md). */
@ArgsType()
export class DeleteTransactionArgs extends TransactionIdArgs {
  @ExpectedVersion()
  expectedVersion?: number | null;
}

@ArgsType()
export class CreateTransactionArgs {
  @Field(() => UUID, { description: 'One of your accounts.' })
  accountId!: string;

  @Field(() => Money, { description: 'Expenses negative.' })
  amount!: string;

  @Field(() => String, { nullable: true })
  @OptionalText(DESCRIPTION_MAX, 'description')
  description?: string | null;

  @Field(() => String, { nullable: true })
  @OptionalText(CATEGORY_MAX, 'category')
  category?: string | null;

  @Field(() => LocalDate, { description: 'YYYY-MM-DD.' })
  date!: string;

  @Field(() => Boolean, { nullable: true, description: 'Default false.' })
  recurring?: boolean | null;

  @Field(() => UUID, { nullable: true, description: 'One of your social happenings.' })
  socialHappeningId?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'RFC 5545 RRULE (`FREQ=MONTHLY`, `FREQ=WEEKLY;BYDAY=FR;COUNT=10` …; daily or less often): this transaction is booked now and starts the series; each later date is booked on that date. Makes it `recurring`.',
  })
  @OptionalText(RECURRENCE_RULE_MAX, 'recurrence')
  recurrence?: string | null;
}

@ArgsType()
export class UpdateTransactionArgs extends TransactionIdArgs {
  @Field(() => UUID, { nullable: true, description: 'Moves it to another of your accounts (both balances follow).' })
  @IfPresent('accountId')
  accountId?: string;

  @Field(() => Money, { nullable: true })
  @IfPresent('amount')
  amount?: string;

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  @OptionalText(DESCRIPTION_MAX, 'description')
  description?: string | null;

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  @OptionalText(CATEGORY_MAX, 'category')
  category?: string | null;

  @Field(() => LocalDate, { nullable: true })
  @IfPresent('date')
  date?: string;

  @Field(() => Boolean, { nullable: true })
  @IfPresent('recurring')
  recurring?: boolean;

  @Field(() => UUID, { nullable: true, description: 'null unlinks it.' })
  socialHappeningId?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "Starts or changes the series of this transaction (a single one or a series' first; booked occurrences stay, bookings go on after the last); null stops it (booked ones stay).",
  })
  @OptionalText(RECURRENCE_RULE_MAX, 'recurrence')
  recurrence?: string | null;

  @ExpectedVersion()
  expectedVersion?: number | null;
}

export const TransactionPage = Paginated(FinanceTransaction, 'TransactionPage');
export type TransactionPage = InstanceType<typeof TransactionPage>;
