/**
 * Where each daily measure comes from: one source per domain table (or a few), each a SELECT of
 * `(user_id, date, <its columns>)` grouped by person-day. The aggregate statement (insights.queries.ts)
 * joins every source on the days they have, for many people and a date range each, in ONE statement.
 *
 * A source reads through two relations the statement provides:
 * - `scope(user_id, from_date, to_date, tz)`: the people of the batch, their range and time zone;
 * - `scoped_days(day_id, user_id, date, sleep_hours, mood, energy)`: their days in range.
 *
 * Pluggable: a module that brings a new daily measure adds its source here (its column must exist in
 * `insight_days` and in metrics.ts). A column no source fills stays null.
 */
export interface DailySource {
  name: string;
  /** The SELECT (a CTE body). */
  sql: string;
  /** The `insight_days` columns it fills: the column and its value over the source's alias `src`. */
  columns: { column: string; value: string }[];
}

/** Local clock minutes after noon (23:00 → 660, 01:00 → 780), so a bedtime around midnight orders as a line. */
const minutesAfterNoon = (timestamp: string) => `((extract(hour from ${timestamp})::int * 60 + extract(minute from ${timestamp})::int + 720) % 1440)`;

export const DAILY_SOURCES: readonly DailySource[] = [
  {
    // The day's own fields: the latest check-in's mood and energy, the night's sleep.
    name: 'days',
    sql: `select user_id, date, sleep_hours, mood, energy from scoped_days`,
    columns: [
      { column: 'sleep_hours', value: 'src.sleep_hours' },
      { column: 'mood', value: 'src.mood' },
      { column: 'energy', value: 'src.energy' },
    ],
  },
  {
    // The bedtime of the day's longest sleep entry (a nap is not the night).
    name: 'bedtime',
    sql: `select d.user_id, d.date,
            (array_agg(${minutesAfterNoon('(e.bedtime at time zone s.tz)')} order by e.duration desc) filter (where e.bedtime is not null))[1] as bedtime_minutes
          from sleep_entries e join scoped_days d on d.day_id = e.day_id join scope s on s.user_id = d.user_id
          group by d.user_id, d.date`,
    columns: [{ column: 'bedtime_minutes', value: 'src.bedtime_minutes' }],
  },
  {
    name: 'steps',
    sql: `select d.user_id, d.date, sum(e.steps)::int as steps from steps_entries e join scoped_days d on d.day_id = e.day_id group by d.user_id, d.date`,
    columns: [{ column: 'steps', value: 'src.steps' }],
  },
  {
    name: 'water',
    sql: `select d.user_id, d.date, sum(e.volume) as water_ml from water_intakes e join scoped_days d on d.day_id = e.day_id group by d.user_id, d.date`,
    columns: [{ column: 'water_ml', value: 'src.water_ml' }],
  },
  {
    // Gym, cardio and mobility sessions all count as training sessions.
    name: 'training_sessions',
    sql: `select d.user_id, d.date, count(*)::int as sessions from (
            select day_id from training_sessions union all select day_id from cardio_sessions union all select day_id from mobility_sessions
          ) e join scoped_days d on d.day_id = e.day_id group by d.user_id, d.date`,
    columns: [{ column: 'training_sessions', value: 'coalesce(src.sessions, 0)' }],
  },
  {
    // Volume load: Σ reps × load of the day's sets (sets without both add nothing).
    name: 'training_load',
    sql: `select d.user_id, d.date, coalesce(sum(st.reps * st.load), 0) as load
          from training_sessions t join scoped_days d on d.day_id = t.day_id
          join training_exercises te on te.session_id = t.id join training_sets st on st.training_exercise_id = te.id
          group by d.user_id, d.date`,
    columns: [{ column: 'training_load', value: 'coalesce(src.load, 0)' }],
  },
  {
    name: 'reading',
    sql: `select d.user_id, d.date, sum(e.duration)::int as minutes from reading_sessions e join scoped_days d on d.day_id = e.day_id group by d.user_id, d.date`,
    columns: [{ column: 'reading_minutes', value: 'coalesce(src.minutes, 0)' }],
  },
  {
    name: 'social',
    sql: `select d.user_id, d.date, count(*)::int as happenings from social_happenings e join scoped_days d on d.day_id = e.day_id group by d.user_id, d.date`,
    columns: [{ column: 'social_happenings', value: 'coalesce(src.happenings, 0)' }],
  },
  {
    // Habits done: a habit whose entries of the day add up to its target (a CHECK habit's one entry is 1).
    name: 'habits',
    sql: `select d.user_id, d.date, count(*)::int as done from (
            select e.day_id, e.habit_id, sum(e.value) as total from habit_entries e join scoped_days d on d.day_id = e.day_id group by e.day_id, e.habit_id
          ) x join habits h on h.id = x.habit_id join scoped_days d on d.day_id = x.day_id
          where x.total >= h.target
          group by d.user_id, d.date`,
    columns: [{ column: 'habits_done', value: 'coalesce(src.done, 0)' }],
  },
  {
    // A task counts on the local date it was finished (or deferred), whatever day it was planned on.
    name: 'tasks_done',
    sql: `select t.user_id, (t.completed_at at time zone s.tz)::date as date, count(*)::int as done
          from tasks t join scope s on s.user_id = t.user_id
          where t.status = 'done' and t.completed_at >= (s.from_date - 1)::timestamp and t.completed_at < (s.to_date + 2)::timestamp
            and (t.completed_at at time zone s.tz)::date between s.from_date and s.to_date
          group by 1, 2`,
    columns: [{ column: 'tasks_done', value: 'coalesce(src.done, 0)' }],
  },
  {
    name: 'tasks_deferred',
    sql: `select t.user_id, (t.deferred_at at time zone s.tz)::date as date, count(*)::int as deferred
          from tasks t join scope s on s.user_id = t.user_id
          where t.status = 'deferred' and t.deferred_at >= (s.from_date - 1)::timestamp and t.deferred_at < (s.to_date + 2)::timestamp
            and (t.deferred_at at time zone s.tz)::date between s.from_date and s.to_date
          group by 1, 2`,
    columns: [{ column: 'tasks_deferred', value: 'coalesce(src.deferred, 0)' }],
  },
  {
    // Expenses (negative amounts) by date, summed as recorded in every account, and by category.
    name: 'spending',
    sql: `select user_id, date, sum(spent) as total, jsonb_object_agg(category, spent) as by_category from (
            select t.user_id, t.date, coalesce(t.category, '') as category, sum(-t.amount) as spent
            from finance_transactions t join scope s on s.user_id = t.user_id
            where t.date between s.from_date and s.to_date and t.amount < 0
            group by 1, 2, 3
          ) c group by user_id, date`,
    columns: [
      { column: 'spending', value: 'coalesce(src.total, 0)' },
      { column: 'spending_by_category', value: `coalesce(src.by_category, '{}'::jsonb)` },
    ],
  },
];

/** Every column of `insight_days` the aggregate writes (besides id, user_id, date and the timestamps). */
export const AGGREGATE_COLUMNS = [
  'sleep_hours',
  'bedtime_minutes',
  'mood',
  'energy',
  'steps',
  'water_ml',
  'training_sessions',
  'training_load',
  'reading_minutes',
  'habits_done',
  'social_happenings',
  'spending',
  'spending_by_category',
  'tasks_done',
  'tasks_deferred',
] as const;


/**
 * The SELECT of the person-days of the batch: `user_id, date, <AGGREGATE_COLUMNS>` for every day on
 * which any source has something. Parameters: $1 uuid[] people, $2 date[] first days, $3 date[] last
 * days, $4 text[] time zones (one entry per person, in the same order).
 */
export function aggregateSelect(sources: readonly DailySource[] = DAILY_SOURCES): string {
  const filled = new Map<string, string>();
  sources.forEach((source, i) => {
    for (const { column, value } of source.columns) filled.set(column, value.replace(/\bsrc\./g, `s${i}.`));
  });
  const ctes = sources.map((source, i) => `s${i} as (${source.sql})`);
  const keys = sources.map((_, i) => `select user_id, date from s${i}`).join(' union ');
  const joins = sources.map((_, i) => `left join s${i} on s${i}.user_id = k.user_id and s${i}.date = k.date`).join(' ');
  const values = AGGREGATE_COLUMNS.map((column) => `${filled.get(column) ?? 'null'} as ${column}`).join(', ');
  return (
    `with scope as (select * from unnest($1::uuid[], $2::date[], $3::date[], $4::text[]) as x(user_id, from_date, to_date, tz)),` +
    ` scoped_days as (select d.id as day_id, d.user_id, d.date, d.sleep_hours, d.mood, d.energy from days d join scope s on s.user_id = d.user_id and d.date between s.from_date and s.to_date),` +
    ` ${ctes.join(', ')},` +
    ` keys as (${keys})` +
    ` select k.user_id, k.date, ${values} from keys k ${joins}`
  );
}
