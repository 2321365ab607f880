import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, rowShape } from '../core/database/read-rows.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import { FinanceAccount } from './finance-account.entity.js';
import { FinanceTransaction } from './finance-transaction.entity.js';

/** The finance domain's hand-written SQL: balances move in SQL on numeric, never through a JS number. */

/** PostgreSQL's "numeric field overflow": a balance beyond numeric(15,2). */
const NUMERIC_OVERFLOW = '22003';

/**
 * Adds `plus` and takes `minus` (exact decimal text) to the balance of the caller's account, in SQL on
 * numeric. The UPDATE takes the row's lock, so concurrent writers queue and none loses an update.
 * Another user's or a missing account answers 404 naming `field`.
 */
export async function moveBalance(em: EntityManager, userId: string, accountId: string, plus: string, minus: string, field = 'accountId'): Promise<void> {
  const a = rowShape(em, FinanceAccount);
  const balance = a.column('balance');
  const sql =
    `update ${a.table} set ${balance} = ${balance} + $1::numeric - $2::numeric, ${a.column('updatedAt')} = now()` +
    ` where id = $3 and ${a.column('userId')} = $4 returning id`;
  let rows: Record<string, unknown>[];
  try {
    rows = await queryRows(em, sql, [plus, minus, accountId, userId]);
  } catch (error) {
    if ((error as { code?: string }).code === NUMERIC_OVERFLOW) {
      const message = 'The account balance would exceed 9999999999999.99';
      throw new ValidationError(message, [{ path: ['amount'], message }]);
    }
    throw error;
  }
  if (!rows.length) throw new NotFoundError('Account', { field });
}

export interface SpendingRow {
  currency: string;
  /** null on the currency's total row; '' for the expenses without a category. */
  category: string | null;
  /** Exact decimal text, positive: what went out. */
  spent: string;
  count: number;
  /** True on the currency's total row. */
  total: boolean;
}

/** At most this many rows (category totals) a spending summary reads; the currency totals come first. */
export const SPENDING_ROWS_MAX = 1000;

/**
 * The caller's expenses (negative amounts) dated `startDate..endDate`, optionally of one account,
 * optionally of one category (as stored: lower case), summed in SQL on numeric per account currency and
 * category, with each currency's total: totals first,
 * then the categories by amount spent (largest first). Uncategorized expenses have category ''.
 */
export async function spendingByCategory(
  em: EntityManager,
  userId: string,
  range: { startDate: string; endDate: string; accountId?: string | null; category?: string | null },
): Promise<SpendingRow[]> {
  const t = rowShape(em, FinanceTransaction);
  const a = rowShape(em, FinanceAccount);
  const params: unknown[] = [userId, range.startDate, range.endDate];
  let filters = '';
  if (range.accountId) {
    params.push(range.accountId);
    filters = ` and t.${t.column('accountId')} = $${params.length}`;
  }
  if (range.category) {
    params.push(range.category);
    filters += ` and t.${t.column('category')} = $${params.length}`;
  }
  const category = `coalesce(t.${t.column('category')}, '')`;
  const sql =
    `select a.${a.column('currency')} as currency, ${category} as category, grouping(${category}) = 1 as total,` +
    ` sum(-t.${t.column('amount')})::text as spent, count(*)::int as count` +
    ` from ${t.table} t join ${a.table} a on a.id = t.${t.column('accountId')}` +
    ` where t.${t.column('userId')} = $1 and t.${t.column('date')} >= $2::date and t.${t.column('date')} <= $3::date and t.${t.column('amount')} < 0${filters}` +
    ` group by grouping sets ((a.${a.column('currency')}), (a.${a.column('currency')}, ${category}))` +
    ` order by grouping(${category}) desc, a.${a.column('currency')}, sum(-t.${t.column('amount')}) desc, ${category}` +
    ` limit ${SPENDING_ROWS_MAX}`;
  const rows = await queryRows(em, sql, params);
  return rows.map((r) => ({
    currency: r.currency as string,
    category: r.total ? null : (r.category as string),
    spent: r.spent as string,
    count: r.count as number,
    total: r.total as boolean,
  }));
}
