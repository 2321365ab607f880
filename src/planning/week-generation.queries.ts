import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../core/database/read-rows.js';
import { NORMAL_CHECKLIST } from './checklist-key.js';

/** A day made with its week by `insertWeeks`. */
export interface MadeDay {
  id: string;
  date: string;
  weekId: string;
  weekStart: string;
}

/** The ids of the user's days at `dates` that exist, by date. */
export async function dayIdsAt(em: EntityManager, userId: string, dates: readonly string[]): Promise<Map<string, string>> {
  if (!dates.length) return new Map();
  const rows = (await queryRows(em, "select id, to_char(date, 'YYYY-MM-DD') as date from days where user_id = $1 and date = any($2::date[])", [userId, dates])) as {
    id: string;
    date: string;
  }[];
  return new Map(rows.map((r) => [r.date, r.id]));
}

/**
 * Many weeks at once, each as `WeekService.generate` makes one (the week, its 7 days, each day's
 * normal checklist), in one statement; a week that exists is left as it is (`on conflict do nothing`,
 * which also waits for a writer making the same week). Returns the days of the weeks it made.
 */
export async function insertWeeks(em: EntityManager, userId: string, mondays: readonly string[]): Promise<MadeDay[]> {
  if (!mondays.length) return [];
  return (await queryRows(
    em,
    `with w as (
       insert into weeks (id, created_at, updated_at, user_id, start_date, end_date, is_stress_week)
       select gen_random_uuid(), now(), now(), $1, m, m + 6, false from unnest($2::date[]) m
       on conflict (user_id, start_date) do nothing
       returning id, start_date),
     d as (
       insert into days (id, created_at, updated_at, user_id, week_id, date, minimum_mode)
       select gen_random_uuid(), now(), now(), $1, w.id, w.start_date + i, false from w cross join generate_series(0, 6) i
       returning id, week_id, date),
     c as (
       insert into checklist_items (id, created_at, updated_at, user_id, day_id, key, completed)
       select gen_random_uuid(), now(), now(), $1, d.id, k, false from d cross join unnest($3::text[]) k)
     select d.id, to_char(d.date, 'YYYY-MM-DD') as "date", d.week_id as "weekId", to_char(w.start_date, 'YYYY-MM-DD') as "weekStart"
       from d join w on w.id = d.week_id`,
    [userId, mondays, NORMAL_CHECKLIST],
  )) as unknown as MadeDay[];
}
