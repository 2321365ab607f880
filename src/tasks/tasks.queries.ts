import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, rowShape } from '../core/database/read-rows.js';
import { Day } from '../planning/day.entity.js';
import { recordLiveChange } from '../core/live/change-collector.js';
import type { LiveChangeKind } from '../core/live/live-change.js';
import { reportRows } from '../core/live/reported-rows.queries.js';
import { namedParameters } from '../core/database/named-parameters.js';

/** Raw writes are told to the live collector (and so the change feed) row by row: the ORM cannot see them. */
function told(em: EntityManager, rows: Record<string, unknown>[], kind: LiveChangeKind): void {
  for (const row of rows) recordLiveChange(em, String(row.user_id), { entity: 'Task', id: String(row.id), kind });
}

/**
 * Runs a write of a series' occurrences (`statement`, `:name` placeholders, without `returning`) and
 * tells the live updates and the change feed each row it wrote (`kind`) without reading them into the
 * service (`reportRows`: years of a daily series' occurrences cost what a few do). `owner` is the
 * series' person; null runs the write alone (a trash entry that holds the rows already reported them).
 */
async function toldBySql(em: EntityManager, owner: string | null, statement: string, params: Record<string, unknown>, kind: LiveChangeKind): Promise<void> {
  if (owner === null) {
    const { text, values } = namedParameters(statement, params);
    await queryRows(em, text, values);
    return;
  }
  await reportRows(em, owner, {
    with: `changed as (${statement} returning id), reached(tbl, id, kind) as (select 'tasks'::text, id::text, :told_kind::text from changed)`,
    params: { ...params, told_kind: kind },
    tables: ['tasks'],
  });
}

/**
 * The tasks domain's hand-written SQL: the series reads and writes that touch many occurrences at once
 * (one statement each, whatever the series holds). Each runs on the caller's transaction when there is
 * one (`queryRows` takes the ORM's open transaction).
 */

/** A series as its first task holds it. */
export interface SeriesRow {
  id: string;
  rule: string;
  start: string;
  exceptions: string[];
  /** The series' last date (`recurrence_end`), null when it never ends. */
  end: string | null;
}

/** An occurrence to make: its series (first task), its date and the day it goes on (null: no day). */
export interface NewOccurrence {
  seriesId: string;
  date: string;
  dayId: string | null;
}

/** An occurrence made by `insertOccurrences`. */
export interface MadeOccurrence {
  id: string;
  title: string;
}

const tasks = () => '"tasks"';

/**
 * The first tasks of the user's series that can have a date from `from` to `to`: started by `to`, not
 * ended before `from` (`recurrence_end`), at most `limit`, oldest start first. The partial index
 * `tasks_series_first_index` holds exactly these rows per user.
 */
export async function seriesAlive(em: EntityManager, userId: string, from: string, to: string, limit: number): Promise<SeriesRow[]> {
  const rows = await queryRows(
    em,
    `select t.id, t.recurrence as rule, t.occurrence_date as start, t.recurrence_exceptions as exceptions, t.recurrence_end::text as "end" from ${tasks()} as t
      where t.user_id = $1 and t.recurrence is not null and t.occurrence_date <= $3 and (t.recurrence_end is null or t.recurrence_end >= $2)
      order by t.occurrence_date asc, t.id asc limit $4`,
    [userId, from, to, limit],
  );
  return rows as unknown as SeriesRow[];
}

/** How many of the user's series are still going on `date` (their end, if any, is not before it). */
export async function countSeriesAlive(em: EntityManager, userId: string, date: string): Promise<number> {
  const [row] = await queryRows(
    em,
    `select count(*)::int as n from ${tasks()} as t where t.user_id = $1 and t.recurrence is not null and (t.recurrence_end is null or t.recurrence_end >= $2)`,
    [userId, date],
  );
  return Number(row!.n);
}

/** The user's days from `from` to `to` (dates, both included): date → day id. At most 366 rows a call. */
export async function dayIdsBetween(em: EntityManager, userId: string, from: string, to: string): Promise<Map<string, string>> {
  const day = rowShape(em, Day);
  const rows = await queryRows(
    em,
    `select t.id, t.${day.column('date')} as date from ${day.table} as t where t.${day.column('userId')} = $1 and t.${day.column('date')} between $2 and $3 limit 366`,
    [userId, from, to],
  );
  return new Map(rows.map((row) => [row.date as string, row.id as string]));
}

/**
 * Makes occurrences, one statement: each a copy of its series' first task (title, description, timebox,
 * category, start time) as `todo`, with `series_id` and `occurrence_date`. A date its series already has
 * is skipped by the unique (series_id, occurrence_date) (`on conflict do nothing`: a retried or concurrent
 * generation never makes one twice), and so is a day that would go past `dayCap` tasks (the cap trigger
 * would refuse the whole statement). Answers the rows made.
 */
export async function insertOccurrences(em: EntityManager, userId: string, wanted: readonly NewOccurrence[], now: Date, dayCap: number): Promise<MadeOccurrence[]> {
  if (wanted.length === 0) return [];
  const rows = await queryRows(
    em,
    `insert into ${tasks()} (id, created_at, updated_at, user_id, title, description, timebox, status, category_id, day_id, start_time, series_id, occurrence_date, recurrence_exceptions)
     select w.id, $2::timestamptz, $2::timestamptz, f.user_id, f.title, f.description, f.timebox, 'todo', f.category_id, w.day_id, f.start_time, f.id, w.occurrence_date, '{}'
       from (
         select w.*, row_number() over (partition by w.day_id order by w.occurrence_date, w.series_id) as position
           from unnest($3::uuid[], $4::uuid[], $5::date[], $6::uuid[]) as w(id, series_id, occurrence_date, day_id)
       ) as w
       join ${tasks()} as f on f.id = w.series_id and f.user_id = $1 and f.recurrence is not null
      where w.day_id is null or (select count(*) from ${tasks()} as d where d.day_id = w.day_id) + w.position <= $7
     on conflict (series_id, occurrence_date) do nothing
     returning id, title, user_id`,
    [userId, now, wanted.map(() => randomUUID()), wanted.map((w) => w.seriesId), wanted.map((w) => w.date), wanted.map((w) => w.dayId), dayCap],
  );
  told(em, rows, 'created');
  return rows as unknown as MadeOccurrence[];
}

/**
 * Deletes the occurrences of a series dated after `date` that are not done (the first task stays); `owner`
 * null: a trash entry holding them reported them (`toldBySql`).
 */
export async function deleteUndoneAfter(em: EntityManager, owner: string | null, seriesId: string, date: string): Promise<void> {
  await toldBySql(em, owner, `delete from ${tasks()} where series_id = :series and occurrence_date > :date and status <> 'done' and id <> :series`, { series: seriesId, date }, 'deleted');
}

/**
 * Moves the occurrences of a series dated after `date` to another series (the first task of a split);
 * with `dates`, only those on one of them.
 */
export async function moveToSeries(em: EntityManager, owner: string, fromSeriesId: string, toSeriesId: string, date: string, now: Date, dates?: readonly string[]): Promise<void> {
  const only = dates ? ' and occurrence_date = any(:dates::date[])' : '';
  await toldBySql(
    em,
    owner,
    `update ${tasks()} set series_id = :to, updated_at = :now where series_id = :from and occurrence_date > :date and id <> :from${only}`,
    { from: fromSeriesId, to: toSeriesId, date, now, ...(dates ? { dates } : {}) },
    'updated',
  );
}

/** Makes the occurrences of a series dated after `date` single tasks (done ones a split leaves outside every series). */
export async function detachAfter(em: EntityManager, owner: string, seriesId: string, date: string, now: Date): Promise<void> {
  await toldBySql(
    em,
    owner,
    `update ${tasks()} set series_id = null, occurrence_date = null, updated_at = :now where series_id = :series and occurrence_date > :date and id <> :series`,
    { series: seriesId, date, now },
    'updated',
  );
}

/**
 * The condition (on alias `t`, for the trash) of the occurrences `deleteUndoneAfter` deletes: a delete of
 * "this and following" keeps them in the trash entry of the occurrence named.
 */
export const undoneAfter = (seriesId: string, date: string) => ({
  where: `t.series_id = $1 and t.occurrence_date > $2::date and t.status <> 'done' and t.id <> $1`,
  params: [seriesId, date],
});

/** Makes the occurrences of a series dated `date` or later single tasks (restored after the series ended before `date`). */
export async function detachFrom(em: EntityManager, userId: string, seriesId: string, date: string, now: Date): Promise<void> {
  await toldBySql(
    em,
    userId,
    `update ${tasks()} set series_id = null, occurrence_date = null, updated_at = :now where user_id = :user and series_id = :series and occurrence_date >= :date and id <> :series`,
    { user: userId, series: seriesId, date, now },
    'updated',
  );
}

/** The dates of a series' occurrences after `date`, at most `limit`, in order. */
export async function occurrenceDatesAfter(em: EntityManager, seriesId: string, date: string, limit: number): Promise<string[]> {
  const rows = await queryRows(
    em,
    `select occurrence_date as date from ${tasks()} where series_id = $1 and occurrence_date > $2 and id <> $1 order by occurrence_date asc limit $3`,
    [seriesId, date, limit],
  );
  return rows.map((row) => row.date as string);
}

/** The fields an occurrence copies from its series' first task. */
export interface TemplateChanges {
  title?: string;
  description?: string | null;
  timebox?: number;
  categoryId?: string | null;
  startTime?: string | null;
}

const TEMPLATE_COLUMNS: Record<keyof TemplateChanges, string> = {
  title: 'title',
  description: 'description',
  timebox: 'timebox',
  categoryId: 'category_id',
  startTime: 'start_time',
};

/** Writes changed template fields to the occurrences of a series after `date` that are not done. */
export async function applyToUndoneAfter(em: EntityManager, owner: string, seriesId: string, date: string, changes: TemplateChanges, now: Date): Promise<void> {
  const entries = (Object.keys(TEMPLATE_COLUMNS) as (keyof TemplateChanges)[]).filter((key) => changes[key] !== undefined);
  if (entries.length === 0) return;
  const sets = entries.map((key) => `${TEMPLATE_COLUMNS[key]} = :${key}`).join(', ');
  await toldBySql(
    em,
    owner,
    `update ${tasks()} set ${sets}, updated_at = :now where series_id = :series and occurrence_date > :date and status <> 'done' and id <> :series`,
    { series: seriesId, date, now, ...Object.fromEntries(entries.map((key) => [key, changes[key]])) },
    'updated',
  );
}
