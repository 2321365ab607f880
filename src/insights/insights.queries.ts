import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../core/database/read-rows.js';
import { AGGREGATE_COLUMNS, aggregateSelect } from './daily-sources.queries.js';
import type { Finding } from './find-insights.js';
import { METRICS, type InsightMetric } from './metrics.js';

/** The insights feature's hand-written SQL: the nightly job's claim and set-based aggregate, the reads. */

/** A person whose nightly run is due, as claimed. */
export interface DuePerson {
  userId: string;
  timezone: string;
  /** The person's local date at the run's instant. */
  today: string;
  /** The last day the stored aggregates cover (null: none yet). */
  aggregatedThrough: string | null;
  /** The local date of the last run that rebuilt the whole window (null: never). */
  fullBuiltOn: string | null;
}

/** One person-day as the aggregate gives it. */
export interface AggregateRow {
  userId: string;
  date: string;
  values: Partial<Record<InsightMetric, number | null>>;
  spendingByCategory: Record<string, number>;
}

/** Gives every person a bookkeeping row (new accounts since the last run); one statement. */
export async function ensureRunRows(em: EntityManager): Promise<void> {
  await queryRows(
    em,
    `insert into insight_runs (id, user_id, created_at, updated_at, tests_run, insights_found)
     select gen_random_uuid(), u.id, now(), now(), 0, 0 from users u
      where not exists (select 1 from insight_runs r where r.user_id = u.id)
     on conflict (user_id) do nothing`,
  );
}

/**
 * Claims up to `limit` people whose run is due at `now`: their local clock is past `localTime` and their
 * last run was on an earlier local date. Rows are locked `FOR UPDATE SKIP LOCKED` for the transaction,
 * so two runs at once (two instances, a retried job) share the people between them and never wait.
 * `onlyUserIds` narrows the claim (tests, the benchmark).
 */
export async function claimDuePeople(em: EntityManager, now: Date, localTime: string, defaultZone: string, limit: number, onlyUserIds: readonly string[] | null): Promise<DuePerson[]> {
  const local = `($1::timestamptz at time zone coalesce(s.timezone, $2))`;
  const rows = await queryRows(
    em,
    `select r.user_id, coalesce(s.timezone, $2) as timezone, ${local}::date::text as today, r.aggregated_through::text as aggregated_through, r.full_built_on::text as full_built_on
       from insight_runs r left join user_settings s on s.user_id = r.user_id
      where (r.run_date is null or r.run_date < ${local}::date) and ${local}::time >= $3::time
        and ($5::uuid[] is null or r.user_id = any($5::uuid[]))
      order by r.run_date nulls first, r.user_id
      limit $4
      for no key update of r skip locked`,
    [now.toISOString(), defaultZone, localTime, limit, onlyUserIds],
  );
  return rows.map((r) => ({ userId: r.user_id as string, timezone: r.timezone as string, today: r.today as string, aggregatedThrough: (r.aggregated_through as string | null) ?? null, fullBuiltOn: (r.full_built_on as string | null) ?? null }));
}

/** The aggregate range of one person in a batch: rebuilt days and the days kept. */
export interface AggregateRange {
  userId: string;
  timezone: string;
  /** First day rebuilt. */
  from: string;
  /** Last day rebuilt (the person's yesterday). */
  to: string;
  /** Days before this are dropped (outside the window). */
  keepFrom: string;
}

/**
 * Rebuilds the aggregates of the batch's ranges: deletes the stored days in each range (and those that
 * left the window), then inserts the person-days the sources give, set-based: two statements for the
 * whole batch whatever its size.
 */
export async function rebuildAggregates(em: EntityManager, ranges: readonly AggregateRange[]): Promise<number> {
  if (!ranges.length) return 0;
  const users = ranges.map((r) => r.userId);
  await queryRows(
    em,
    `delete from insight_days x using unnest($1::uuid[], $2::date[], $3::date[], $4::date[]) as s(user_id, from_date, to_date, keep_from)
      where x.user_id = s.user_id and (x.date between s.from_date and s.to_date or x.date < s.keep_from)`,
    [users, ranges.map((r) => r.from), ranges.map((r) => r.to), ranges.map((r) => r.keepFrom)],
  );
  const columns = AGGREGATE_COLUMNS.join(', ');
  const rows = await queryRows(
    em,
    `with agg as (${aggregateSelect()})
     insert into insight_days (id, user_id, date, created_at, updated_at, ${columns})
     select gen_random_uuid(), user_id, date, now(), now(), ${columns} from agg
     returning 1`,
    [users, ranges.map((r) => r.from), ranges.map((r) => r.to), ranges.map((r) => r.timezone)],
  );
  return rows.length;
}

const metricSelect = METRICS.map((m) => `${m.column}::float8 as "${m.key}"`).join(', ');

function toAggregate(row: Record<string, unknown>): AggregateRow {
  const values: Partial<Record<InsightMetric, number | null>> = {};
  for (const metric of METRICS) values[metric.key] = (row[metric.key] as number | null) ?? null;
  const categories = row.spending_by_category;
  return {
    userId: row.user_id as string,
    date: row.date as string,
    values,
    spendingByCategory: (typeof categories === 'string' ? JSON.parse(categories) : categories) as Record<string, number>,
  };
}

/** The stored person-days of the batch, from each person's `from` date on, by person and date: one statement. */
export async function storedAggregates(em: EntityManager, people: readonly { userId: string; from: string }[]): Promise<AggregateRow[]> {
  if (!people.length) return [];
  const rows = await queryRows(
    em,
    `select x.user_id, x.date::text as date, ${metricSelect}, x.spending_by_category
       from insight_days x join unnest($1::uuid[], $2::date[]) as s(user_id, from_date) on s.user_id = x.user_id and x.date >= s.from_date
      order by x.user_id, x.date`,
    [people.map((p) => p.userId), people.map((p) => p.from)],
  );
  return rows.map(toAggregate);
}

/**
 * The person-days of one person from `from` to `to`, computed now from the domains' tables (the same
 * SELECT the nightly job stores): the summaries read it live, so they need no run and are never stale.
 */
export async function liveAggregates(em: EntityManager, userId: string, timezone: string, from: string, to: string): Promise<AggregateRow[]> {
  const rows = await queryRows(
    em,
    `with agg as (${aggregateSelect()})
     select user_id, date::text as date, ${metricSelect}, spending_by_category from agg order by date`,
    [[userId], [from], [to], [timezone]],
  );
  return rows.map(toAggregate);
}

/** A person's findings of one run, to store. */
export interface FoundInsights {
  userId: string;
  findings: readonly Finding[];
}

/** Replaces the insights of the batch's people with this run's findings: two statements for the batch. */
export async function replaceInsights(em: EntityManager, found: readonly FoundInsights[], computedAt: Date): Promise<void> {
  if (!found.length) return;
  await queryRows(em, `delete from insights where user_id = any($1::uuid[])`, [found.map((f) => f.userId)]);
  const rows = found.flatMap(({ userId, findings }) => findings.map((f) => ({ userId, ...f })));
  if (!rows.length) return;
  await queryRows(
    em,
    `insert into insights (id, user_id, created_at, updated_at, computed_at, sentence, condition, outcome, lag, rho, n, p, q, threshold, effect, mean_with, mean_without, condition_days, days)
     select gen_random_uuid(), r.user_id, $2, $2, $2, r.sentence, r.condition, r.outcome, r.lag, r.rho, r.n, r.p, r.q, r.threshold, r.effect, r.mean_with, r.mean_without, r.condition_days, r.days
       from jsonb_to_recordset($1::jsonb) as r(user_id uuid, sentence text, condition text, outcome text, lag smallint, rho float8, n int, p float8, q float8,
            threshold float8, effect float8, mean_with float8, mean_without float8, condition_days int, days text[])`,
    [
      JSON.stringify(
        rows.map((r) => ({
          user_id: r.userId,
          sentence: r.sentence,
          condition: r.condition,
          outcome: r.outcome,
          lag: r.lag,
          rho: r.rho,
          n: r.n,
          p: r.p,
          q: r.q,
          threshold: r.threshold,
          effect: r.effect,
          mean_with: r.meanWith,
          mean_without: r.meanWithout,
          condition_days: r.conditionDays,
          days: r.days,
        })),
      ),
      computedAt.toISOString(),
    ],
  );
}

/** Marks the batch's people done for their local date: one statement. */
export async function finishRuns(
  em: EntityManager,
  runs: readonly { userId: string; runDate: string; aggregatedThrough: string | null; fullBuiltOn: string | null; tests: number; found: number }[],
): Promise<void> {
  if (!runs.length) return;
  await queryRows(
    em,
    `update insight_runs r set run_date = s.run_date, aggregated_through = s.through, full_built_on = s.full_built_on, tests_run = s.tests, insights_found = s.found, updated_at = now()
       from unnest($1::uuid[], $2::date[], $3::date[], $4::date[], $5::int[], $6::int[]) as s(user_id, run_date, through, full_built_on, tests, found)
      where r.user_id = s.user_id`,
    [runs.map((r) => r.userId), runs.map((r) => r.runDate), runs.map((r) => r.aggregatedThrough), runs.map((r) => r.fullBuiltOn), runs.map((r) => r.tests), runs.map((r) => r.found)],
  );
}
