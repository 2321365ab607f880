import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../core/database/read-rows.js';
import { AgendaEntryType } from './agenda.types.js';

/*
 * The agenda's sources: one read statement per domain for the whole range, whatever it holds.
 *
 * Every statement takes the same parameters:
 *   $1 user id, $2 range start, $3 range end (timestamptz, end excluded), $4 the user's IANA time zone,
 *   $5 showAllTransactions, $6 largeExpenseThreshold.
 * and answers `id`, the columns the title is made of, `start`, `end` (timestamptz or null) and `day`
 * (true for entries known only by their day). A day-only entry spans its day in the user's time zone:
 * `start` is that day's midnight there (`date::timestamp at time zone tz`), `end` the next midnight.
 *
 * An entry belongs to the range when it overlaps it: a timed entry with an end when it starts before
 * the range's end and ends after its start; one without an end when it starts within the range; a
 * day-only entry when its day overlaps the range. The statements hold no quoted text, so those that
 * start together share one round trip (src/core/database/read-batch.ts).
 *
 * This module reads the domains' tables; no domain imports the agenda.
 */

export interface AgendaSource {
  type: AgendaEntryType;
  sql: string;
  /** The entry's title from its row. */
  title(row: Record<string, unknown>): string;
}

/** The user's days whose [midnight, next midnight) in $4 overlaps [$2, $3). */
const DAY_IN_RANGE = `d.user_id = $1
    and d.date between ($2::timestamptz at time zone $4)::date and ($3::timestamptz at time zone $4)::date
    and (d.date::timestamp at time zone $4) < $3::timestamptz
    and ((d.date + 1)::timestamp at time zone $4) > $2::timestamptz`;

const DAY_SPAN = `(d.date::timestamp at time zone $4) as "start", ((d.date + 1)::timestamp at time zone $4) as "end", true as "day"`;

/** A timed entry `start_col`..`end_expr` overlapping [$2, $3) (an entry without end: starting in it). */
function timedInRange(start: string, end: string): string {
  return `${start} < $3::timestamptz and coalesce(${end} > $2::timestamptz, ${start} >= $2::timestamptz)`;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : String(value ?? ''));

/** `<description | category | Transaction> <amount> <currency>`, of a transaction or a series' row. */
export const transactionTitle = (row: Record<string, unknown>): string => `${text(row.description ?? row.category ?? 'Transaction')} ${text(row.amount)} ${text(row.currency)}`;

/** `Birthday: <name>`. */
export const birthdayTitle = (row: Record<string, unknown>): string => `Birthday: ${text(row.name)}`;

export const AGENDA_SOURCES: readonly AgendaSource[] = [
  {
    type: AgendaEntryType.task,
    sql: `select t.id, t.title, ${DAY_SPAN}
  from tasks t join days d on d.id = t.day_id
  where t.user_id = $1 and ${DAY_IN_RANGE}`,
    title: (row) => text(row.title),
  },
  {
    type: AgendaEntryType.training,
    sql: `select s.id, s.split, s.start_time as "start", s.end_time as "end", false as "day"
  from training_sessions s
  where s.user_id = $1 and ${timedInRange('s.start_time', 's.end_time')}`,
    title: (row) => `Training: ${text(row.split)}`,
  },
  {
    type: AgendaEntryType.mobility,
    sql: `select s.id, s.focus, ${DAY_SPAN}
  from mobility_sessions s join days d on d.id = s.day_id
  where s.user_id = $1 and ${DAY_IN_RANGE}`,
    title: (row) => `Mobility: ${text(row.focus)}`,
  },
  {
    type: AgendaEntryType.cardio,
    sql: `select s.id, s.type, s.start_time as "start", coalesce(s.end_time, s.start_time + make_interval(mins => s.duration)) as "end", false as "day"
  from cardio_sessions s
  where s.user_id = $1 and ${timedInRange('s.start_time', 'coalesce(s.end_time, s.start_time + make_interval(mins => s.duration))')}`,
    title: (row) => `Cardio: ${text(row.type)}`,
  },
  {
    type: AgendaEntryType.social_happening,
    sql: `select h.id, h.title, h.start_time as "start", h.end_time as "end", false as "day"
  from social_happenings h
  where h.user_id = $1 and ${timedInRange('h.start_time', 'h.end_time')}`,
    title: (row) => text(row.title),
  },
  {
    type: AgendaEntryType.deadline,
    sql: `select x.id, x.title, x.due_date as "start", null::timestamptz as "end", false as "day"
  from deadlines x
  where x.user_id = $1 and x.due_date >= $2::timestamptz and x.due_date < $3::timestamptz`,
    title: (row) => text(row.title),
  },
  {
    type: AgendaEntryType.project_task,
    sql: `select x.id, x.title, x.due_date as "start", null::timestamptz as "end", false as "day"
  from project_tasks x
  where x.user_id = $1 and x.due_date >= $2::timestamptz and x.due_date < $3::timestamptz`,
    title: (row) => text(row.title),
  },
  {
    // operations.md "Finance": without showAllTransactions only recurring ones and large expenses
    // (negative, |amount| >= largeExpenseThreshold); income thus only when recurring.
    type: AgendaEntryType.transaction,
    sql: `select x.id, x.amount, x.description, x.category, a.currency,
    (x.date::timestamp at time zone $4) as "start", null::timestamptz as "end", true as "day"
  from finance_transactions x join finance_accounts a on a.id = x.account_id
  where x.user_id = $1
    and x.date between ($2::timestamptz at time zone $4)::date and ($3::timestamptz at time zone $4)::date
    and (x.date::timestamp at time zone $4) < $3::timestamptz
    and ((x.date + 1)::timestamp at time zone $4) > $2::timestamptz
    and ($5::boolean or x.recurring or (x.amount < 0 and -x.amount >= $6::numeric))`,
    title: (row) => transactionTitle(row),
  },
  {
    type: AgendaEntryType.reading,
    sql: `select s.id, b.title, ${DAY_SPAN}
  from reading_sessions s join days d on d.id = s.day_id join books b on b.id = s.book_id
  where s.user_id = $1 and ${DAY_IN_RANGE}`,
    title: (row) => `Reading: ${text(row.title)}`,
  },
  {
    type: AgendaEntryType.meditation,
    sql: `select s.id, s.type, s.time as "start", s.time + make_interval(mins => s.duration) as "end", false as "day"
  from meditation_sessions s
  where s.user_id = $1 and ${timedInRange('s.time', 's.time + make_interval(mins => s.duration)')}`,
    title: (row) => (row.type ? `Meditation: ${text(row.type)}` : 'Meditation'),
  },
  {
    // A birthday every year from the birth date on, on its month and day (29 February on the last day
    // of February in common years: core/recurrence yearlyRule, which the feed writes as its RRULE). The
    // range covers at most 366 days, so at most two years of each person; made in SQL like a day source.
    // `occurrence` makes the entry's id `birthday:<personId>:<date>`; `birthday` is the series' start.
    type: AgendaEntryType.birthday,
    sql: `select p.id, p.name, p.birthday::text as birthday, y.date::text as occurrence,
    (y.date::timestamp at time zone $4) as "start", ((y.date + 1)::timestamp at time zone $4) as "end", true as "day"
  from people p
  cross join lateral (
    select case when extract(month from p.birthday) = 2 and extract(day from p.birthday) = 29 then make_date(n, 3, 1) - 1
                else make_date(n, extract(month from p.birthday)::int, extract(day from p.birthday)::int) end as date
    from generate_series(greatest(1, extract(year from ($2::timestamptz at time zone $4))::int), extract(year from ($3::timestamptz at time zone $4))::int) n
  ) y
  where p.user_id = $1 and p.birthday is not null and y.date >= p.birthday
    and y.date between ($2::timestamptz at time zone $4)::date and ($3::timestamptz at time zone $4)::date
    and (y.date::timestamp at time zone $4) < $3::timestamptz
    and ((y.date + 1)::timestamp at time zone $4) > $2::timestamptz`,
    title: birthdayTitle,
  },
];

/**
 * The series the agenda expands (agenda.service.ts), each one statement whatever it holds, taking
 * $1 user id, $2 and $3 the first and last local dates of the range (both included), and answering at
 * most `limit` rows, earliest first. Like the sources, they hold no quoted text (they share the round trip).
 *
 * Recurring tasks: the first task of each series with a date in the range possible (started by the
 * range's end, not ended before its start: `recurrence_end`, kept by the task service), with its rule,
 * its EXDATEs, and the dates in the range its occurrences were made for (`materialized`: those appear
 * as the tasks they are, wherever they were moved, and never again as dates of the rule).
 * `everySeries` (the calendar feed): those starting after the range too.
 */
export function taskSeriesSql(limit: number, everySeries = false): string {
  return `select t.id, t.title, t.recurrence as rule, t.occurrence_date::text as series_start, t.recurrence_end::text as series_end, t.recurrence_exceptions as exceptions,
    coalesce((select array_agg(o.occurrence_date::text) from tasks o
      where o.series_id = t.id and o.occurrence_date between $2::date and $3::date), array[]::text[]) as materialized
  from tasks t
  where t.user_id = $1 and t.recurrence is not null and t.series_id = t.id
    and ${everySeries ? '' : 't.occurrence_date <= $3::date and '}(t.recurrence_end is null or t.recurrence_end >= $2::date)
  order by t.occurrence_date, t.id limit ${limit}`;
}

/**
 * Recurring transactions: each series still booking (`next_date`, the first date not booked yet, by the
 * range's end) and not ended before the range's start (`recurrence_end`), with what its occurrences will
 * be booked as. Booked dates are transactions (the transaction source); these are the dates to come.
 *
 * `everySeries` (the calendar feed): the series that have started, or start, after the range too (a
 * series belongs in the feed whatever its next date; issue 34).
 */
export function transactionSeriesSql(limit: number, everySeries = false): string {
  return `select x.id, x.amount, x.description, x.category, a.currency, x.recurrence as rule, x.occurrence_date::text as series_start, x.next_date::text as next_date,
    x.recurrence_end::text as series_end
  from finance_transactions x join finance_accounts a on a.id = x.account_id
  where x.user_id = $1 and x.recurrence is not null and x.next_date is not null${everySeries ? '' : ' and x.next_date <= $3::date'}
    and (x.recurrence_end is null or x.recurrence_end >= $2::date)
  order by x.next_date, x.id limit ${limit}`;
}

/**
 * Every birthday of the user (the feed writes each as a yearly series, whatever its next date): $1 user
 * id, at most `limit`, earliest birth date first.
 */
export function birthdaySeriesSql(limit: number): string {
  return `select p.id, p.name, p.birthday::text as birthday from people p
  where p.user_id = $1 and p.birthday is not null
  order by p.birthday, p.id limit ${limit}`;
}

/** The two settings the agenda reads: the user's time zone and large-expense threshold (undefined before any settings). */
export async function agendaSettingsRow(em: EntityManager, userId: string): Promise<Record<string, unknown> | undefined> {
  const [settings] = await queryRows(em, 'select s.timezone, s.large_expense_threshold from user_settings s where s.user_id = $1', [userId]);
  return settings;
}

/** The rows of one source's statement (`sql` is a source of AGENDA_SOURCES with its order and cap). */
export function sourceRows(em: EntityManager, sql: string, params: readonly unknown[]): Promise<Record<string, unknown>[]> {
  return queryRows(em, sql, params);
}

/** The feed of a token hash: its user and what it last answered. */
export async function feedRowByTokenHash(em: EntityManager, tokenHash: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await queryRows(em, 'select f.user_id, f.etag, f.content_changed_at from agenda_feeds f where f.token_hash = $1', [tokenHash]);
  return row;
}

/** Gives the user a feed with this token hash, or replaces the token of theirs (one statement). */
export async function upsertFeedToken(em: EntityManager, id: string, userId: string, tokenHash: string): Promise<void> {
  await em.execute(
    `insert into agenda_feeds (id, created_at, updated_at, user_id, token_hash) values (?, now(), now(), ?, ?)
     on conflict (user_id) do update set token_hash = excluded.token_hash, updated_at = now()`,
    [id, userId, tokenHash],
    'run',
  );
}

export async function saveFeedFingerprint(em: EntityManager, userId: string, etag: string, changedAt: Date): Promise<void> {
  await queryRows(em, 'update agenda_feeds set etag = $2, content_changed_at = $3 where user_id = $1', [userId, etag, changedAt]);
}
