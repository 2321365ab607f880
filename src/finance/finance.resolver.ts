import { Args, Authorized, Mutation, Query, Resolver } from 'type-graphql';
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
  DeleteTransactionArgs,
} from './finance.types.js';
import { Service } from '../core/request-services.js';
import { CachedPerPerson } from '../graphql/cacheable-operation.js';

@Authorized()
@Resolver(() => FinanceAccount)
export class FinanceAccountResolver {
  @Query(() => AccountPage, { description: 'Your money accounts by name; filter by type and isActive.' })
  accounts(@Args(() => ListAccountsArgs) args: ListAccountsArgs, @CurrentUserId() userId: string, @Service(AccountService) accountService: AccountService): Promise<AccountPage> {
    return accountService.list(userId, args);
  }

  @Query(() => FinanceAccount)
  account(@Args(() => AccountIdArgs) args: AccountIdArgs, @CurrentUserId() userId: string, @Service(AccountService) accountService: AccountService): Promise<FinanceAccount> {
    return accountService.get(userId, args.accountId);
  }

  @Mutation(() => FinanceAccount, { description: '`balance` is the opening balance; transactions move it from there.' })
  createAccount(@Args(() => CreateAccountArgs) args: CreateAccountArgs, @CurrentUserId() userId: string, @Service(AccountService) accountService: AccountService): Promise<FinanceAccount> {
    return accountService.create(userId, args);
  }

  @Mutation(() => FinanceAccount, { description: 'The balance follows the transactions only.' })
  updateAccount(@Args(() => UpdateAccountArgs) args: UpdateAccountArgs, @CurrentUserId() userId: string, @Service(AccountService) accountService: AccountService): Promise<FinanceAccount> {
    const { accountId, ...changes } = args;
    return accountService.update(userId, accountId, changes);
  }

  @Mutation(() => Deleted, { description: 'Deletes the account and its transactions.' })
  deleteAccount(@Args(() => AccountIdArgs) args: AccountIdArgs, @CurrentUserId() userId: string, @Service(AccountService) accountService: AccountService): Promise<Deleted> {
    return accountService.delete(userId, args.accountId);
  }
}

@Authorized()
@Resolver(() => FinanceTransaction)
export class FinanceTransactionResolver {
  @CachedPerPerson()
  @Query(() => TransactionPage, { description: 'Your transactions, newest first; filter by account, date range and category.' })
  transactions(@Args(() => ListTransactionsArgs) args: ListTransactionsArgs, @CurrentUserId() userId: string, @Service(TransactionService) transactionService: TransactionService): Promise<TransactionPage> {
    return transactionService.list(userId, args);
  }

  @Query(() => FinanceTransaction)
  transaction(@Args(() => TransactionIdArgs) args: TransactionIdArgs, @CurrentUserId() userId: string, @Service(TransactionService) transactionService: TransactionService): Promise<FinanceTransaction> {
    return transactionService.get(userId, args.transactionId);
  }

  @Mutation(() => FinanceTransaction, { description: "Adds the amount to the account's balance in the same database transaction." })
  createTransaction(@Args(() => CreateTransactionArgs) args: CreateTransactionArgs, @CurrentUserId() userId: string, @Service(TransactionService) transactionService: TransactionService): Promise<FinanceTransaction> {
    return transactionService.create(userId, args);
  }

  @Mutation(() => FinanceTransaction, { description: 'A new amount or account moves the balances by the difference, in one database transaction.' })
  updateTransaction(@Args(() => UpdateTransactionArgs) args: UpdateTransactionArgs, @CurrentUserId() userId: string, @Service(TransactionService) transactionService: TransactionService): Promise<FinanceTransaction> {
    const { transactionId, expectedVersion, ...changes } = args;
    return transactionService.update(userId, transactionId, changes, expectedVersion);
  }

  @Mutation(() => Deleted, { description: "Takes the amount back out of the account's balance." })
  deleteTransaction(@Args(() => DeleteTransactionArgs) args: DeleteTransactionArgs, @CurrentUserId() userId: string, @Service(TransactionService) transactionService: TransactionService): Promise<Deleted> {
    return transactionService.delete(userId, args.transactionId, args.expectedVersion);
  }
}
