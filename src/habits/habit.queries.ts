import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../core/database/read-rows.js';
import type { HabitDayMark } from './habit-enums.js';
import type { HabitHistory } from './habit-progress.js';

/**
 * The habit reads' SQL. A history read is three statements whatever the number of habits or days: the
 * entries summed per habit and date, the marks, and the person's rest days.
 */

/** The history of `habitIds` (all the user's) from `from` to `to`, keyed by habit id (every id present). */
export async function historiesOf(em: EntityManager, userId: string, habitIds: readonly string[], from: string, to: string): Promise<Map<string, HabitHistory>> {
  const histories = new Map<string, { values: Map<string, number>; marks: Map<string, HabitDayMark>; restDates: Set<string> }>();
  if (!habitIds.length) return histories;
  const ids = [...new Set(habitIds)];
  const sumsRead = () =>
    queryRows(
      em,
      `select habit_id, to_char(date, 'YYYY-MM-DD') as date, sum(value)::float8 as value from habit_entries
       where user_id = $1 and habit_id = any($2::uuid[]) and date between $3::date and $4::date group by habit_id, date`,
      [userId, ids, from, to],
    );
  const marksRead = () =>
    queryRows(
      em,
      `select habit_id, to_char(date, 'YYYY-MM-DD') as date, mark from habit_day_marks
       where user_id = $1 and habit_id = any($2::uuid[]) and date between $3::date and $4::date`,
      [userId, ids, from, to],
    );
  const restRead = () => restDatesOf(em, userId, from, to);
  // Outside a transaction, started together they share one round trip (core/database/read-batch.ts);
  // inside one (a write's streak update) they go one after another on its connection.
  const [sums, marks, restDates] = em.isInTransaction()
    ? [await sumsRead(), await marksRead(), await restRead()]
    : await Promise.all([sumsRead(), marksRead(), restRead()]);
  for (const id of ids) histories.set(id, { values: new Map(), marks: new Map(), restDates });
  for (const row of sums) histories.get(row.habit_id as string)?.values.set(row.date as string, Number(row.value));
  for (const row of marks) histories.get(row.habit_id as string)?.marks.set(row.date as string, row.mark as HabitDayMark);
  return histories;
}

/** The person's rest days from `from` to `to`: days in minimum mode and the days of stress weeks. */
export async function restDatesOf(em: EntityManager, userId: string, from: string, to: string): Promise<Set<string>> {
  const rows = await queryRows(
    em,
    `select to_char(d.date, 'YYYY-MM-DD') as date from days d join weeks w on w.id = d.week_id
     where d.user_id = $1 and d.date between $2::date and $3::date and (d.minimum_mode or w.is_stress_week)`,
    [userId, from, to],
  );
  return new Set(rows.map((row) => row.date as string));
}

/** The sum of a habit's entries on one day. */
export async function daySum(em: EntityManager, habitId: string, dayId: string): Promise<{ value: number; entries: number }> {
  const [row] = await queryRows(em, 'select coalesce(sum(value), 0)::float8 as value, count(*)::int as entries from habit_entries where habit_id = $1 and day_id = $2', [habitId, dayId]);
  return { value: Number(row?.value ?? 0), entries: Number(row?.entries ?? 0) };
}

/** The position after the user's last habit. */
export async function nextPosition(em: EntityManager, userId: string): Promise<number> {
  const [row] = await queryRows(em, 'select coalesce(max(position) + 1, 0)::int as next from habits where user_id = $1', [userId]);
  return Number(row?.next ?? 0);
}

/** A habit whose running streak was last computed before its owner's today. */
export interface StaleStreak {
  habitId: string;
  userId: string;
  today: string;
}

/**
 * Up to `limit` active habits with a running streak (current > 0) computed before their owner's today
 * at `now`, their rows locked (SKIP LOCKED: a write holding one, or another run, is passed over). A
 * streak of 0 cannot change by a day passing, so only running ones are read (a partial index).
 */
export async function claimStaleStreaks(em: EntityManager, now: Date, defaultZone: string, limit: number, onlyUserIds: readonly string[] | null): Promise<StaleStreak[]> {
  const today = `(($1::timestamptz at time zone coalesce(s.timezone, $2))::date)`;
  const rows = await queryRows(
    em,
    `select h.id, h.user_id, ${today}::text as today from habits h left join user_settings s on s.user_id = h.user_id
      where h.current_streak > 0 and h.archived_at is null and (h.streak_computed_on is null or h.streak_computed_on < ${today})
        and ($4::uuid[] is null or h.user_id = any($4::uuid[]))
      order by h.streak_computed_on nulls first, h.id
      limit $3
      for no key update of h skip locked`,
    [now.toISOString(), defaultZone, limit, onlyUserIds],
  );
  return rows.map((r) => ({ habitId: r.id as string, userId: r.user_id as string, today: r.today as string }));
}
