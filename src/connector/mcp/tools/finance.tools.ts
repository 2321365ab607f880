import { z } from 'zod';
import { userToday } from './common-arguments.js';
import { AccountService } from '../../../finance/account.service.js';
import type { FinanceAccount } from '../../../finance/finance-account.entity.js';
import type { FinanceTransaction } from '../../../finance/finance-transaction.entity.js';
import { CATEGORY_MAX, DESCRIPTION_MAX, NAME_MAX, TYPE_MAX } from '../../../finance/finance.types.js';
import { SPENDING_RANGE_MAX_DAYS, TransactionService } from '../../../finance/transaction.service.js';
import { addDays } from '../../../core/dates.js';
import { MAX_PAGE_SIZE } from '../../../core/pagination.js';
import { optionalText } from '../../../core/validation/tool-arguments.js';
import { idOrName } from './by-name.js';
import { isoDate, pageMetaOut } from './outputs.js';
import { ADDITIVE, defineTool, READ_ONLY, type ToolContext, type ConnectorTool } from './tool.js';

/** Accounts read to find one by name: at most this many pages of MAX_PAGE_SIZE. */
const ACCOUNT_PAGES_MAX = 10;
/** Categories listed per currency in a spending summary (largest first); the totals count them all. */
const SUMMARY_CATEGORIES_MAX = 50;

const money = (text: string) => Number(text);

/** The user's accounts by name (the service's list, page after page, bounded). */
async function allAccounts(ctx: ToolContext): Promise<FinanceAccount[]> {
  const service = ctx.service(AccountService);
  const accounts: FinanceAccount[] = [];
  for (let page = 1; page <= ACCOUNT_PAGES_MAX; page++) {
    const found = await service.list(ctx.userId, { page, limit: MAX_PAGE_SIZE });
    accounts.push(...found.items);
    if (found.items.length < MAX_PAGE_SIZE || accounts.length >= found.meta.total) break;
  }
  return accounts;
}

/** The account meant by `accountId` or `accountName`; undefined when neither is given and none is required. */
async function accountOf(ctx: ToolContext, args: { accountId?: string; accountName?: string }): Promise<string | undefined> {
  if (!args.accountId && args.accountName === undefined) return undefined;
  return idOrName('Account', { id: args.accountId, name: args.accountName }, () => allAccounts(ctx), (a) => a.name, (a) => a.id);
}

const today = userToday;

function monthEnd(date: string): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return addDays(`${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}-01`, -1);
}

const accountOut = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  currency: z.string(),
  balance: z.number().describe('Opening balance plus every transaction.'),
  isActive: z.boolean(),
});

function accountJson(a: FinanceAccount) {
  return { id: a.id, name: a.name, type: a.type, currency: a.currency, balance: money(a.balance), isActive: a.isActive };
}

const transactionOut = z.object({
  id: z.string(),
  date: isoDate,
  amount: z.number().describe('Expenses negative.'),
  currency: z.string().nullable(),
  description: z.string().nullable(),
  category: z.string().nullable(),
  recurring: z.boolean(),
  accountId: z.string(),
  accountName: z.string().nullable(),
});

function transactionJson(t: FinanceTransaction, account: FinanceAccount | undefined) {
  return {
    id: t.id,
    date: t.date,
    amount: money(t.amount),
    currency: account?.currency ?? null,
    description: t.description ?? null,
    category: t.category ?? null,
    recurring: t.recurring,
    accountId: t.accountId,
    accountName: account?.name ?? null,
  };
}

const accountId = z.string().uuid().optional().describe("One of the user's accounts by id (or give accountName).");
const accountName = z.string().min(1).max(NAME_MAX).optional().describe('An account by name (exact, any case, or a unique part of it).');
const date = (field: string) => z.iso.date({ error: `${field} must be a date as YYYY-MM-DD` });

export const financeTools: ConnectorTool[] = [
  defineTool({
    name: 'finance_accounts',
    mirrors: 'Query.accounts',
    title: 'Money accounts',
    description:
      "The user's money accounts by name with their balances (the opening balance plus every transaction) and currencies; optionally only one type or only active ones. Paginated (`page` from 1, `limit` up to 100).",
    inputSchema: {
      type: optionalText('type', TYPE_MAX).describe('Exact type, any case: checking, savings, cash, credit_card …'),
      isActive: z.boolean().optional(),
      page: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).optional().describe(`Items per page (default 50; more than ${MAX_PAGE_SIZE} counts as ${MAX_PAGE_SIZE}).`),
    },
    outputSchema: { accounts: z.array(accountOut), meta: pageMetaOut },
    area: 'money',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const page = await ctx.service(AccountService).list(ctx.userId, args);
      return { accounts: page.items.map(accountJson), meta: page.meta };
    },
  }),
  defineTool({
    name: 'finance_add_transaction',
    mirrors: 'Mutation.createTransaction',
    title: 'Add a transaction',
    description:
      "Records money out (negative amount) or in (positive) on one of the user's accounts, given by id or name, on a date (the user's today by default); the account's balance moves in the same database transaction. Categories are free text, stored lower case. Records no event (the catalog has none for finance).",
    inputSchema: {
      accountId,
      accountName,
      amount: z.number().describe('At most 2 decimals; expenses negative (-12.5 for a 12.50 lunch).'),
      description: optionalText('description', DESCRIPTION_MAX),
      category: optionalText('category', CATEGORY_MAX).describe('For example restaurants, groceries, salary.'),
      date: date('date').optional().describe("YYYY-MM-DD; the user's today when absent."),
      recurring: z.boolean().optional().describe('Default false.'),
      socialHappeningId: z.string().uuid().optional().describe('One of the user’s social happenings it paid for.'),
    },
    outputSchema: { ...transactionOut.shape, currency: z.string(), accountName: z.string(), balance: z.number().describe("The account's balance after it.") },
    area: 'money',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const id = await idOrName('Account', { id: args.accountId, name: args.accountName }, () => allAccounts(ctx), (a) => a.name, (a) => a.id);
      const row = await ctx.service(TransactionService).create(ctx.userId, {
        accountId: id,
        amount: args.amount,
        description: args.description,
        category: args.category,
        date: args.date ?? (await today(ctx)),
        recurring: args.recurring,
        socialHappeningId: args.socialHappeningId,
      });
      const account = await ctx.service(AccountService).get(ctx.userId, id);
      return { ...transactionJson(row, account), currency: account.currency, accountName: account.name, balance: money(account.balance) };
    },
  }),
  defineTool({
    name: 'finance_transactions',
    mirrors: 'Query.transactions',
    title: 'List transactions',
    description:
      "The user's transactions, newest first, optionally of one account (id or name), between two dates (both included) and of one category. Paginated (`page` from 1, `limit` up to 100).",
    inputSchema: {
      accountId,
      accountName,
      startDate: date('startDate').optional().describe('First date included, YYYY-MM-DD.'),
      endDate: date('endDate').optional().describe('Last date included, YYYY-MM-DD.'),
      category: optionalText('category', CATEGORY_MAX).describe('Exact category, any case.'),
      page: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).optional().describe(`Items per page (default 50; more than ${MAX_PAGE_SIZE} counts as ${MAX_PAGE_SIZE}).`),
    },
    outputSchema: { transactions: z.array(transactionOut), meta: pageMetaOut },
    area: 'money',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const account = await accountOf(ctx, args);
      const page = await ctx.service(TransactionService).list(ctx.userId, {
        accountId: account,
        startDate: args.startDate,
        endDate: args.endDate,
        category: args.category,
        page: args.page,
        limit: args.limit,
      });
      const accounts = new Map((page.items.length ? await allAccounts(ctx) : []).map((a) => [a.id, a]));
      return { transactions: page.items.map((t) => transactionJson(t, accounts.get(t.accountId))), meta: page.meta };
    },
  }),
  defineTool({
    name: 'finance_spending_summary',
    title: 'Spending by category',
    description:
      `What the user spent (expenses, as positive amounts) per category and in total, per currency, between two dates (both included; at most ${SPENDING_RANGE_MAX_DAYS} days). Default: this calendar month in the user's time zone; with only startDate, through today; with only endDate, from the first of that month. Optionally one account (id or name) or one category. Income is not counted. Up to ${SUMMARY_CATEGORIES_MAX} categories per currency, largest first (the totals count all).`,
    inputSchema: {
      startDate: date('startDate').optional().describe('First date included, YYYY-MM-DD.'),
      endDate: date('endDate').optional().describe('Last date included, YYYY-MM-DD.'),
      accountId,
      accountName,
      category: optionalText('category', CATEGORY_MAX).describe('Only this category, any case.'),
    },
    outputSchema: {
      startDate: isoDate,
      endDate: isoDate,
      currencies: z.array(
        z.object({
          currency: z.string(),
          spent: z.number().describe('Total spent in this currency (positive).'),
          count: z.number().describe('Expenses counted.'),
          categories: z.array(z.object({ category: z.string().nullable().describe('null: without a category.'), spent: z.number(), count: z.number() })),
          categoriesOmitted: z.number().describe('Smaller categories not listed.'),
        }),
      ),
    },
    area: 'money',
    annotations: READ_ONLY,
    async run(args, ctx) {
      let { startDate, endDate } = args;
      if (!startDate && !endDate) {
        const now = await today(ctx);
        startDate = `${now.slice(0, 7)}-01`;
        endDate = monthEnd(now);
      } else if (!startDate) {
        startDate = `${endDate!.slice(0, 7)}-01`;
      } else if (!endDate) {
        endDate = await today(ctx);
      }
      const account = await accountOf(ctx, args);
      const rows = await ctx.service(TransactionService).spending(ctx.userId, { startDate: startDate!, endDate: endDate!, accountId: account, category: args.category });
      const currencies = rows
        .filter((r) => r.total)
        .map((total) => {
          const categories = rows.filter((r) => !r.total && r.currency === total.currency);
          return {
            currency: total.currency,
            spent: money(total.spent),
            count: total.count,
            categories: categories.slice(0, SUMMARY_CATEGORIES_MAX).map((r) => ({ category: r.category || null, spent: money(r.spent), count: r.count })),
            categoriesOmitted: Math.max(0, categories.length - SUMMARY_CATEGORIES_MAX),
          };
        });
      return { startDate: startDate!, endDate: endDate!, currencies };
    },
  }),
];
