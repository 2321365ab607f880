import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, rowShape } from '../core/database/read-rows.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import { FinanceAccount } from './finance-account.entity.js';

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
