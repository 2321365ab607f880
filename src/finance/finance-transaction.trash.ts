import { defineTrashKind } from '../trash/trash-kinds.js';
import { moveBalance } from './finance.queries.js';

/** A transaction comes back into its account's balance, as its delete took it out; refused when the account is gone. */
export const TRANSACTION_TRASH = defineTrashKind({
  kind: 'transaction',
  table: 'finance_transactions',
  async afterRestore(em, userId, { row }) {
    await moveBalance(em, userId, String(row.account_id), String(row.amount), '0');
  },
});
