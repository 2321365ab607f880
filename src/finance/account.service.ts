import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { findPage } from '../core/database/find-page.js';
import { isCurrency } from './currency.js';
import { FinanceAccount } from './finance-account.entity.js';
import { requireMoney } from '../core/money.js';

export interface NewAccount {
  name: string;
  type: string;
  /** The opening balance (exact decimal text or a number with at most 2 decimals); default 0. */
  balance?: string | number | null;
  currency: string;
  isActive?: boolean | null;
}

export interface AccountChanges {
  name?: string;
  type?: string;
  currency?: string;
  isActive?: boolean;
}

export interface AccountFilter extends PageArgs {
  type?: string | null;
  isActive?: boolean | null;
}

/** An ISO 4217 code in circulation, upper-cased; else 400 naming currency. */
function currencyCode(value: string): string {
  const code = value.trim().toUpperCase();
  if (!isCurrency(code)) {
    const message = `currency must be an ISO 4217 code in circulation (got ${JSON.stringify(value.slice(0, 10))})`;
    throw new ValidationError(message, [{ path: ['currency'], message }]);
  }
  return code;
}

const cleanType = (type: string) => type.trim().toLowerCase();

/**
 * The money accounts of one user. The balance is not written here after creation: transactions move it
 * (transaction.service.ts), so it always equals the opening balance plus their sum.
 */
export class AccountService {
  constructor(private readonly em: EntityManager) {}

  async list(userId: string, filter: AccountFilter): Promise<Page<FinanceAccount>> {
    const where: FilterQuery<FinanceAccount> = { userId };
    if (filter.type?.trim()) where.type = cleanType(filter.type);
    if (filter.isActive !== undefined && filter.isActive !== null) where.isActive = filter.isActive;
    return findPage(this.em, FinanceAccount, where, { name: 'asc', id: 'asc' }, filter);
  }

  async get(userId: string, accountId: string): Promise<FinanceAccount> {
    const account = await this.em.findOne(FinanceAccount, { id: accountId, userId }, { refresh: true });
    if (!account) throw new NotFoundError('Account');
    return account;
  }

  async create(userId: string, input: NewAccount): Promise<FinanceAccount> {
    const opening = input.balance === undefined || input.balance === null ? '0' : requireMoney(input.balance, 'balance');
    const account = this.em.create(FinanceAccount, {
      userId,
      name: input.name.trim(),
      type: cleanType(input.type),
      balance: opening,
      openingBalance: opening,
      currency: currencyCode(input.currency),
      isActive: input.isActive ?? true,
    });
    await this.em.flush();
    return account;
  }

  async update(userId: string, accountId: string, changes: AccountChanges): Promise<FinanceAccount> {
    const currency = changes.currency !== undefined ? currencyCode(changes.currency) : undefined;
    const account = await this.get(userId, accountId);
    if (changes.name !== undefined) account.name = changes.name.trim();
    if (changes.type !== undefined) account.type = cleanType(changes.type);
    if (currency) account.currency = currency;
    if (changes.isActive !== undefined) account.isActive = changes.isActive;
    await this.em.flush();
    return account;
  }

  /** Its transactions go with it. */
  async delete(userId: string, accountId: string): Promise<Deleted> {
    const account = await this.get(userId, accountId);
    await this.em.remove(account).flush();
    return deleted(accountId, 'Account');
  }
}
