import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { CurrentUserId } from '../core/current-user.js';
import { AccountService } from './account.service.js';
import { FinanceAccount } from './finance-account.entity.js';
import { FinanceTransaction } from './finance-transaction.entity.js';
import { TransactionService } from './transaction.service.js';
import {
  AccountIdArgs,
  AccountPage,
  CreateAccountArgs,
  CreateTransactionArgs,
  ListAccountsArgs,
  ListTransactionsArgs,
  TransactionIdArgs,
  TransactionPage,
  UpdateAccountArgs,
  UpdateTransactionArgs,
} from './finance.types.js';

@Authorized()
@Resolver(() => FinanceAccount)
export class FinanceAccountResolver {
  @Query(() => AccountPage, { description: 'Your money accounts by name; filter by type and isActive.' })
  accounts(@Args(() => ListAccountsArgs) args: ListAccountsArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<AccountPage> {
    return new AccountService(ctx.em).list(userId, args);
  }

  @Query(() => FinanceAccount)
  account(@Args(() => AccountIdArgs) args: AccountIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<FinanceAccount> {
    return new AccountService(ctx.em).get(userId, args.accountId);
  }

  @Mutation(() => FinanceAccount, { description: '`balance` is the opening balance; transactions move it from there.' })
  createAccount(@Args(() => CreateAccountArgs) args: CreateAccountArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<FinanceAccount> {
    return new AccountService(ctx.em).create(userId, args);
  }

  @Mutation(() => FinanceAccount, { description: 'The balance follows the transactions only.' })
  updateAccount(@Args(() => UpdateAccountArgs) args: UpdateAccountArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<FinanceAccount> {
    const { accountId, ...changes } = args;
    return new AccountService(ctx.em).update(userId, accountId, changes);
  }

  @Mutation(() => Deleted, { description: 'Deletes the account and its transactions.' })
  deleteAccount(@Args(() => AccountIdArgs) args: AccountIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<Deleted> {
    return new AccountService(ctx.em).delete(userId, args.accountId);
  }
}

@Authorized()
@Resolver(() => FinanceTransaction)
export class FinanceTransactionResolver {
  @Query(() => TransactionPage, { description: 'Your transactions, newest first; filter by account, date range and category.' })
  transactions(@Args(() => ListTransactionsArgs) args: ListTransactionsArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<TransactionPage> {
    return new TransactionService(ctx.em).list(userId, args);
  }

  @Query(() => FinanceTransaction)
  transaction(@Args(() => TransactionIdArgs) args: TransactionIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<FinanceTransaction> {
    return new TransactionService(ctx.em).get(userId, args.transactionId);
  }

  @Mutation(() => FinanceTransaction, { description: "Adds the amount to the account's balance in the same database transaction." })
  createTransaction(@Args(() => CreateTransactionArgs) args: CreateTransactionArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<FinanceTransaction> {
    return new TransactionService(ctx.em).create(userId, args);
  }

  @Mutation(() => FinanceTransaction, { description: 'A new amount or account moves the balances by the difference, in one database transaction.' })
  updateTransaction(@Args(() => UpdateTransactionArgs) args: UpdateTransactionArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<FinanceTransaction> {
    const { transactionId, ...changes } = args;
    return new TransactionService(ctx.em).update(userId, transactionId, changes);
  }

  @Mutation(() => Deleted, { description: "Takes the amount back out of the account's balance." })
  deleteTransaction(@Args(() => TransactionIdArgs) args: TransactionIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<Deleted> {
    return new TransactionService(ctx.em).delete(userId, args.transactionId);
  }
}
