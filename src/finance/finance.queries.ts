import { recordLiveChange } from '../core/live/change-collector.js';
import type { LiveChangeKind } from '../core/live/live-change.js';
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

/** A series due for booking, as claimed: its rule, first date, next date to book, and today in its owner's zone. */
export interface DueSeries {
  id: string;
  rule: string;
  start: string;
  nextDate: string;
  today: string;
  /** The series' last date (`recurrence_end`), null when it never ends or was stored without one. */
  end: string | null;
}

/**
 * Claims up to `limit` series with a date due (`next_date` on or before today in the owner's time zone
 * at `now`; users without settings are in `defaultZone`), earliest first, locking each series row and
 * its account `FOR UPDATE SKIP LOCKED`: a second booking run (another instance, a retried job) passes
 * over what this one holds and never waits, so runs cannot deadlock on accounts either. `onlyId` claims
 * that series alone. The first condition lets the `next_date` index find candidates (no zone is more
 * than a day ahead of UTC); the second is exact.
 */
export async function claimDueSeries(em: EntityManager, now: Date, defaultZone: string, limit: number, onlyId: string | null = null): Promise<DueSeries[]> {
  const t = rowShape(em, FinanceTransaction);
  const a = rowShape(em, FinanceAccount);
  const next = `t.${t.column('nextDate')}`;
  const sql =
    `select t.id, t.${t.column('recurrence')} as rule, t.${t.column('occurrenceDate')}::text as start, ${next}::text as next_date, t.${t.column('recurrenceEnd')}::text as end_date,` +
    ` ($1::timestamptz at time zone coalesce(s.timezone, $2))::date::text as today` +
    ` from ${t.table} t join ${a.table} a on a.id = t.${t.column('accountId')}` +
    ` left join user_settings s on s.user_id = t.${t.column('userId')}` +
    ` where ${next} <= ($1::timestamptz at time zone 'UTC')::date + 1` +
    ` and ${next} <= ($1::timestamptz at time zone coalesce(s.timezone, $2))::date` +
    ` and t.${t.column('recurrence')} is not null and ($4::uuid is null or t.id = $4::uuid)` +
    ` order by ${next}, t.id limit $3 for update of t, a skip locked`;
  const rows = await queryRows(em, sql, [now, defaultZone, limit, onlyId]);
  return rows.map((r) => ({ id: String(r.id), rule: String(r.rule), start: String(r.start), nextDate: String(r.next_date), today: String(r.today), end: r.end_date === null || r.end_date === undefined ? null : String(r.end_date) }));
}

export interface Booking {
  /** New occurrences: id, their series, their date. */
  occurrences: { id: string; seriesId: string; date: string }[];
  /** Each claimed series' next date to book (null: the series has ended). */
  advances: { seriesId: string; nextDate: string | null }[];
}

/**
 * Books occurrences of claimed series in one statement: inserts each as a copy of its series row on
 * its date (`on conflict (series_id, occurrence_date) do nothing`: a date already booked stays booked
 * once), moves each account's balance by exactly the sum of the rows inserted (`returning`), and moves
 * each series' `next_date` on. Answers how many rows were inserted; tells the live updates and the change feed every row it wrote. A balance past numeric(15,2)
 * fails the statement (PostgreSQL 22003) and so the caller's transaction.
 */
export async function bookOccurrences(em: EntityManager, booking: Booking): Promise<number> {
  const t = rowShape(em, FinanceTransaction);
  const a = rowShape(em, FinanceAccount);
  const c = (property: Parameters<typeof t.column>[0]) => t.column(property);
  const sql =
    `with occurrence as (select * from unnest($1::uuid[], $2::uuid[], $3::date[]) as o(id, series_id, date)),` +
    ` booked as (insert into ${t.table} (id, ${c('createdAt')}, ${c('updatedAt')}, ${c('userId')}, ${c('accountId')}, ${c('amount')}, ${c('description')}, ${c('category')}, ${c('date')}, ${c('recurring')}, ${c('seriesId')}, ${c('occurrenceDate')})` +
    ` select o.id, now(), now(), s.${c('userId')}, s.${c('accountId')}, s.${c('amount')}, s.${c('description')}, s.${c('category')}, o.date, true, s.id, o.date` +
    ` from occurrence o join ${t.table} s on s.id = o.series_id` +
    ` on conflict (${c('seriesId')}, ${c('occurrenceDate')}) do nothing returning id, ${c('userId')} as user_id, ${c('accountId')} as account_id, ${c('amount')} as amount),` +
    ` moved as (update ${a.table} a set ${a.column('balance')} = a.${a.column('balance')} + m.total, ${a.column('updatedAt')} = now()` +
    ` from (select account_id, sum(amount) as total from booked group by account_id) m where a.id = m.account_id returning a.id, a.${a.column('userId')} as user_id),` +
    ` advanced as (update ${t.table} s set ${c('nextDate')} = n.next_date from unnest($4::uuid[], $5::date[]) as n(id, next_date) where s.id = n.id returning s.id, s.${c('userId')} as user_id)` +
    // What changed, row by row, for the live updates and the change feed (the ORM sees none of it).
    ` select 'FinanceTransaction' as entity, id::text as id, user_id::text as user_id, 'created' as kind from booked` +
    ` union all select 'FinanceAccount', id::text, user_id::text, 'updated' from moved` +
    ` union all select 'FinanceTransaction', id::text, user_id::text, 'updated' from advanced`;
  const changed = await queryRows(em, sql, [
    booking.occurrences.map((o) => o.id),
    booking.occurrences.map((o) => o.seriesId),
    booking.occurrences.map((o) => o.date),
    booking.advances.map((s) => s.seriesId),
    booking.advances.map((s) => s.nextDate),
  ]);
  let booked = 0;
  for (const row of changed) {
    const kind = row.kind as LiveChangeKind;
    if (kind === 'created') booked++;
    recordLiveChange(em, String(row.user_id), { entity: String(row.entity), id: String(row.id), kind });
  }
  return booked;
}
