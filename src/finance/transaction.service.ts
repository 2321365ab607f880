import { requireVersion } from '../core/database/expected-version.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { findPage } from '../core/database/find-page.js';
import { SocialHappening } from '../social/social-happening.entity.js';
import { FinanceAccount } from './finance-account.entity.js';
import { FinanceTransaction } from './finance-transaction.entity.js';
import { moveBalance, spendingByCategory, type SpendingRow } from './finance.queries.js';
import { requireMoney } from '../core/money.js';
import { lastDate, nextOccurrence, normalizeRule, requireCountWithinHorizon } from '../core/recurrence/recurrence.js';
import { moveToTrash } from '../trash/trash-kinds.js';
import { TRANSACTION_TRASH } from './finance-transaction.trash.js';

export interface NewTransaction {
  accountId: string;
  amount: string | number;
  description?: string | null;
  category?: string | null;
  date: string;
  recurring?: boolean | null;
  socialHappeningId?: string | null;
  /** An RFC 5545 RRULE: the transaction starts a series (see TransactionService). */
  recurrence?: string | null;
}

/** Absent keys stay; null clears description, category and socialHappeningId, and stops a series (recurrence). */
export interface TransactionChanges {
  accountId?: string;
  amount?: string | number;
  description?: string | null;
  category?: string | null;
  date?: string;
  recurring?: boolean;
  socialHappeningId?: string | null;
  recurrence?: string | null;
}

/** A spending summary covers at most this many days (a year, leap day included). */
export const SPENDING_RANGE_MAX_DAYS = 366;

export interface SpendingRange {
  startDate: string;
  endDate: string;
  accountId?: string | null;
  /** Any case. */
  category?: string | null;
}

export interface TransactionFilter extends PageArgs {
  accountId?: string | null;
  startDate?: string | null;
  endDate?: string | null;
  category?: string | null;
}

const cleanCategory = (value: string | null | undefined) => (value?.trim() ? value.trim().toLowerCase() : null);
const cleanText = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

/** The exact sum of Money texts (at most two decimals each), as Money text. */
function sumOfMoney(amounts: string[]): string {
  let cents = 0n;
  for (const amount of amounts) {
    const [whole = '0', fraction = ''] = amount.replace('-', '').split('.');
    const value = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
    cents += amount.startsWith('-') ? -value : value;
  }
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

function invalid(field: string, message: string): ValidationError {
  return new ValidationError(message, [{ path: [field], message }]);
}

/** A transaction's rule: a valid RRULE (core/recurrence refuses one more often than daily: a date is booked once). */
function transactionRule(text: string): string {
  return normalizeRule(text, 'recurrence');
}

async function requireHappening(em: EntityManager, userId: string, happeningId: string): Promise<void> {
  if (!(await em.count(SocialHappening, { id: happeningId, userId }))) throw new NotFoundError('SocialHappening', { field: 'socialHappeningId' });
}

/**
 * Transactions of one user. Each create, update (a move to another account included) and delete
 * changes the account balances in the same database transaction as the row.
 *
 * A transaction with a `recurrence` is a series: it is booked as any other on its date (the series'
 * first date, its DTSTART) and keeps the rule, `seriesId` (its own id) and `nextDate`, the next date to
 * book; the booking job (recurring-bookings.ts) books each later date on that date as a copy of the
 * series row (amount, account, description, category as they are then). Clearing the rule or deleting
 * the series row stops it; booked occurrences stay, as any transaction.
 */
export class TransactionService {
  constructor(private readonly em: EntityManager) {}

  /** Newest first, like a bank statement. */
  async list(userId: string, filter: TransactionFilter): Promise<Page<FinanceTransaction>> {
    return findPage(this.em, FinanceTransaction, await this.where(userId, filter), { date: 'desc', createdAt: 'desc', id: 'asc' }, filter);
  }

  /** Every transaction the filter matches (the CSV export), newest first. */
  async all(userId: string, filter: TransactionFilter): Promise<FinanceTransaction[]> {
    return this.em.find(FinanceTransaction, await this.where(userId, filter), { orderBy: { date: 'desc', createdAt: 'desc', id: 'asc' } });
  }

  /**
   * Expenses per account currency and category over `startDate..endDate` (at most
   * SPENDING_RANGE_MAX_DAYS days), summed in SQL: each currency's total first, then its categories.
   */
  async spending(userId: string, range: SpendingRange): Promise<SpendingRow[]> {
    const days = (Date.parse(range.endDate) - Date.parse(range.startDate)) / 86_400_000 + 1;
    if (days < 1) {
      const message = 'startDate must not be after endDate';
      throw new ValidationError(message, [{ path: ['startDate'], message }]);
    }
    if (days > SPENDING_RANGE_MAX_DAYS) {
      const message = `The range must cover at most ${SPENDING_RANGE_MAX_DAYS} days`;
      throw new ValidationError(message, [{ path: ['endDate'], message }]);
    }
    if (range.accountId && !(await this.em.count(FinanceAccount, { id: range.accountId, userId }))) throw new NotFoundError('Account', { field: 'accountId' });
    return spendingByCategory(this.em, userId, { ...range, category: cleanCategory(range.category) });
  }

  private async where(userId: string, filter: TransactionFilter): Promise<FilterQuery<FinanceTransaction>> {
    if (filter.startDate && filter.endDate && filter.startDate > filter.endDate) {
      const message = 'startDate must not be after endDate';
      throw new ValidationError(message, [{ path: ['startDate'], message }]);
    }
    const where: FilterQuery<FinanceTransaction> = { userId };
    if (filter.accountId) {
      if (!(await this.em.count(FinanceAccount, { id: filter.accountId, userId }))) throw new NotFoundError('Account', { field: 'accountId' });
      where.accountId = filter.accountId;
    }
    if (filter.startDate || filter.endDate) {
      const date: Record<string, string> = {};
      if (filter.startDate) date.$gte = filter.startDate;
      if (filter.endDate) date.$lte = filter.endDate;
      where.date = date;
    }
    if (filter.category?.trim()) where.category = cleanCategory(filter.category);
    return where;
  }

  async get(userId: string, transactionId: string): Promise<FinanceTransaction> {
    const row = await this.em.findOne(FinanceTransaction, { id: transactionId, userId });
    if (!row) throw new NotFoundError('Transaction');
    return row;
  }

  /**
   * New transactions of one account at once (a bank import's chunk): each checked as `create` checks
   * it, the balance moved once by their exact sum, the rows written in one insert; all or none (a row
   * a rule refuses fails them all, and the caller may write them one by one to find it).
   */
  async createMany(userId: string, accountId: string, inputs: Omit<NewTransaction, 'accountId' | 'socialHappeningId'>[]): Promise<FinanceTransaction[]> {
    if (!inputs.length) return [];
    const amounts = inputs.map((input) => requireMoney(input.amount, 'amount'));
    return this.em.transactional(async (em) => {
      await moveBalance(em, userId, accountId, sumOfMoney(amounts), '0');
      const rows = inputs.map((input, i) =>
        em.create(FinanceTransaction, {
          userId,
          accountId,
          amount: amounts[i]!,
          description: cleanText(input.description),
          category: cleanCategory(input.category),
          date: input.date,
          recurring: input.recurring ?? false,
          socialHappeningId: null,
        }),
      );
      await em.flush();
      return rows;
    });
  }

  async create(userId: string, input: NewTransaction): Promise<FinanceTransaction> {
    const amount = requireMoney(input.amount, 'amount');
    const rule = input.recurrence !== undefined && input.recurrence !== null ? transactionRule(input.recurrence) : null;
    if (rule && input.recurring === false) throw invalid('recurring', 'recurring must not be false with a recurrence');
    return this.em.transactional(async (em) => {
      if (input.socialHappeningId) await requireHappening(em, userId, input.socialHappeningId);
      await moveBalance(em, userId, input.accountId, amount, '0');
      const row = em.create(FinanceTransaction, {
        userId,
        accountId: input.accountId,
        amount,
        description: cleanText(input.description),
        category: cleanCategory(input.category),
        date: input.date,
        recurring: rule ? true : (input.recurring ?? false),
        socialHappeningId: input.socialHappeningId ?? null,
      });
      if (rule) startSeries(row, rule, null);
      await em.flush();
      return row;
    });
  }

  async update(userId: string, transactionId: string, changes: TransactionChanges, expectedVersion?: number | null): Promise<FinanceTransaction> {
    const amount = changes.amount !== undefined ? requireMoney(changes.amount, 'amount') : undefined;
    const rule = changes.recurrence === undefined ? undefined : changes.recurrence === null ? null : transactionRule(changes.recurrence);
    return this.em.transactional(async (em) => {
      // The row lock also waits for a booking run holding the series, so the dates below are current.
      const row = await em.findOne(FinanceTransaction, { id: transactionId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) throw new NotFoundError('Transaction');
      requireVersion(row, expectedVersion, 'Transaction');
      if (rule && row.seriesId && row.seriesId !== row.id) throw invalid('recurrence', "recurrence can be set on a single transaction or a series' first, not on a booked occurrence");
      const newRule = rule === undefined ? (row.recurrence ?? null) : rule;
      if (newRule && changes.recurring === false) throw invalid('recurring', 'recurring must not be false with a recurrence');
      if (changes.socialHappeningId) await requireHappening(em, userId, changes.socialHappeningId);
      const oldAccount = row.accountId;
      const newAccount = changes.accountId ?? row.accountId;
      const newAmount = amount ?? row.amount;
      if (newAccount !== oldAccount) {
        // Both rows change: lock them in id order so two opposite moves cannot deadlock.
        const steps = [
          { id: oldAccount, plus: '0', minus: row.amount, field: 'accountId' },
          { id: newAccount, plus: newAmount, minus: '0', field: 'accountId' },
        ].sort((x, y) => (x.id < y.id ? -1 : 1));
        for (const s of steps) await moveBalance(em, userId, s.id, s.plus, s.minus, s.field);
      } else if (amount !== undefined) {
        await moveBalance(em, userId, oldAccount, newAmount, row.amount);
      }
      row.accountId = newAccount;
      row.amount = newAmount;
      if (changes.description !== undefined) row.description = cleanText(changes.description);
      if (changes.category !== undefined) row.category = cleanCategory(changes.category);
      if (changes.date !== undefined) row.date = changes.date;
      if (changes.recurring !== undefined) row.recurring = changes.recurring;
      if (changes.socialHappeningId !== undefined) row.socialHappeningId = changes.socialHappeningId;
      if (rule === null) {
        row.recurrence = null;
        row.nextDate = null;
        row.recurrenceEnd = null;
      } else if (newRule && (rule !== undefined || changes.date !== undefined)) {
        // The series (re)starts on the row's date: it must not be a date the series booked already, and
        // bookings go on after the last one booked.
        const others = { seriesId: row.id, id: { $ne: row.id } };
        if (row.date !== row.occurrenceDate && (await em.count(FinanceTransaction, { ...others, occurrenceDate: row.date }))) {
          throw invalid('date', 'date is a date this series has booked already');
        }
        const [last] = await em.find(FinanceTransaction, others, { orderBy: { occurrenceDate: 'desc' }, limit: 1, fields: ['occurrenceDate'] });
        startSeries(row, newRule, last?.occurrenceDate ?? null);
      }
      await em.flush();
      return row;
    });
  }

  /** With `expectedVersion`, refused (VERSION_CONFLICT) when the transaction changed since it was read; nothing is deleted. */
  async delete(userId: string, transactionId: string, expectedVersion?: number | null): Promise<Deleted> {
    return this.em.transactional(async (em) => {
      const row = await em.findOne(FinanceTransaction, { id: transactionId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) throw new NotFoundError('Transaction');
      requireVersion(row, expectedVersion, 'Transaction');
      await moveToTrash(em, userId, TRANSACTION_TRASH, transactionId, row.description ?? `${row.amount} on ${row.date}`);
      await moveBalance(em, userId, row.accountId, '0', row.amount);
      em.remove(row);
      await em.flush();
      return deleted(transactionId, 'Transaction');
    });
  }
}

/** Makes the row the first of its series on its date; the next date to book follows `lastBooked` (or the row's date). */
function startSeries(row: FinanceTransaction, rule: string, lastBooked: string | null): void {
  requireCountWithinHorizon({ rule, start: row.date }, 'recurrence');
  row.recurrence = rule;
  row.recurrenceEnd = lastDate({ rule, start: row.date });
  row.recurring = true;
  row.seriesId = row.id;
  row.occurrenceDate = row.date;
  const after = lastBooked && lastBooked > row.date ? lastBooked : row.date;
  row.nextDate = nextOccurrence({ rule, start: row.date, end: row.recurrenceEnd }, after);
}
