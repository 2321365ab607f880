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

/** Tasks of the batch's people in `status`, counted on the local date of their `at` column (per person, by `(user_id, status)`). */
function tasksBy(name: string, status: 'done' | 'deferred', at: 'completed_at' | 'deferred_at', column: string): DailySource {
  return {
    name,
    sql: `select s.user_id, x.date, x.n from scope s
          cross join lateral (
            select (t.${at} at time zone s.tz)::date as date, count(*)::int as n
            from tasks t
            where t.user_id = s.user_id and t.status = '${status}' and t.${at} >= (s.from_date - 1)::timestamp and t.${at} < (s.to_date + 2)::timestamp
              and (t.${at} at time zone s.tz)::date between s.from_date and s.to_date
            group by 1
          ) x`,
    columns: [{ column, value: 'coalesce(src.n, 0)' }],
  };
}

/**
 * Each source reads its rows through an index from the batch's people or days (a LATERAL subquery per
 * person or per day), never by scanning a whole table: the statement's cost grows with the batch, not
 * with everyone's data (a hash join over whole tables made every batch of 25 read all 1,000 people's rows).
 */
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
    sql: `select d.user_id, d.date, x.bedtime_minutes
          from scoped_days d join scope s on s.user_id = d.user_id
          cross join lateral (
            select (array_agg(${minutesAfterNoon('(e.bedtime at time zone s.tz)')} order by e.duration desc) filter (where e.bedtime is not null))[1] as bedtime_minutes
            from sleep_entries e where e.day_id = d.day_id
          ) x
          where x.bedtime_minutes is not null`,
    columns: [{ column: 'bedtime_minutes', value: 'src.bedtime_minutes' }],
  },
  {
    name: 'steps',
    sql: `select d.user_id, d.date, x.steps from scoped_days d
          cross join lateral (select sum(e.steps)::int as steps from steps_entries e where e.day_id = d.day_id) x
          where x.steps is not null`,
    columns: [{ column: 'steps', value: 'src.steps' }],
  },
  {
    name: 'water',
    sql: `select d.user_id, d.date, x.water_ml from scoped_days d
          cross join lateral (select sum(e.volume) as water_ml from water_intakes e where e.day_id = d.day_id) x
          where x.water_ml is not null`,
    columns: [{ column: 'water_ml', value: 'src.water_ml' }],
  },
  {
    // Gym, cardio and mobility sessions all count as training sessions.
    name: 'training_sessions',
    sql: `select d.user_id, d.date, x.sessions from scoped_days d
          cross join lateral (select ((select count(*) from training_sessions e where e.day_id = d.day_id)
                                   + (select count(*) from cardio_sessions e where e.day_id = d.day_id)
                                   + (select count(*) from mobility_sessions e where e.day_id = d.day_id))::int as sessions) x
          where x.sessions > 0`,
    columns: [{ column: 'training_sessions', value: 'coalesce(src.sessions, 0)' }],
  },
  {
    // Volume load: Σ reps × load of the day's sets (sets without both add nothing).
    name: 'training_load',
    sql: `select d.user_id, d.date, x.load from scoped_days d
          cross join lateral (
            select sum(st.reps * st.load) as load
            from training_sessions t join training_exercises te on te.session_id = t.id join training_sets st on st.training_exercise_id = te.id
            where t.day_id = d.day_id
          ) x
          where x.load is not null`,
    columns: [{ column: 'training_load', value: 'coalesce(src.load, 0)' }],
  },
  {
    name: 'reading',
    sql: `select d.user_id, d.date, x.minutes from scoped_days d
          cross join lateral (select sum(e.duration)::int as minutes from reading_sessions e where e.day_id = d.day_id) x
          where x.minutes is not null`,
    columns: [{ column: 'reading_minutes', value: 'coalesce(src.minutes, 0)' }],
  },
  {
    name: 'social',
    sql: `select d.user_id, d.date, x.happenings from scoped_days d
          cross join lateral (select count(*)::int as happenings from social_happenings e where e.day_id = d.day_id) x
          where x.happenings > 0`,
    columns: [{ column: 'social_happenings', value: 'coalesce(src.happenings, 0)' }],
  },
  {
    // Habits done: a habit whose entries of the day add up to its target (a CHECK habit's one entry is 1).
    name: 'habits',
    sql: `select d.user_id, d.date, x.done from scoped_days d
          cross join lateral (
            select count(*)::int as done
            from (select e.habit_id, sum(e.value) as total from habit_entries e where e.day_id = d.day_id group by e.habit_id) y
            join habits h on h.id = y.habit_id
            where y.total >= h.target
          ) x
          where x.done > 0`,
    columns: [{ column: 'habits_done', value: 'coalesce(src.done, 0)' }],
  },
  // A task counts on the local date it was finished (or deferred), whatever day it was planned on.
  tasksBy('tasks_done', 'done', 'completed_at', 'tasks_done'),
  tasksBy('tasks_deferred', 'deferred', 'deferred_at', 'tasks_deferred'),
  {
    // Expenses (negative amounts) by date, summed as recorded in every account, and by category.
    name: 'spending',
    sql: `select s.user_id, x.date, x.total, x.by_category from scope s
          cross join lateral (
            select c.date, sum(c.spent) as total, jsonb_object_agg(c.category, c.spent) as by_category from (
              select t.date, coalesce(t.category, '') as category, sum(-t.amount) as spent
              from finance_transactions t
              where t.user_id = s.user_id and t.date between s.from_date and s.to_date and t.amount < 0
              group by 1, 2
            ) c group by c.date
          ) x`,
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
    // Each person's days through the (user_id, date) index.
    ` scoped_days as (select d.id as day_id, d.user_id, d.date, d.sleep_hours, d.mood, d.energy from scope s` +
    ` cross join lateral (select * from days d where d.user_id = s.user_id and d.date between s.from_date and s.to_date) d),` +
    ` ${ctes.join(', ')},` +
    ` keys as (${keys})` +
    ` select k.user_id, k.date, ${values} from keys k ${joins}`
  );
}
