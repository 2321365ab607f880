import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { queryRows } from '../core/database/read-rows.js';
import { recordLiveChange } from '../core/live/change-collector.js';
import type { PageWindow } from '../core/pagination.js';

/** The training domain's hand-written SQL; the services call these by name. */

/**
 * Upserts (or, for null, clears) the user's oneRepMax of an exercise: one statement, safe under concurrent
 * calls. A raw write: the live updates and the change feed hear the row from here.
 */
export async function setOneRepMax(em: EntityManager, userId: string, exerciseId: string, value: number | null): Promise<void> {
  const rows =
    value === null
      ? await queryRows(em, 'update exercise_settings set one_rep_max = null, updated_at = now() where user_id = $1 and exercise_id = $2 returning id::text as id, false as inserted', [userId, exerciseId])
      : await queryRows(
          em,
          `insert into exercise_settings (id, created_at, updated_at, user_id, exercise_id, one_rep_max) values ($1, now(), now(), $2, $3, $4)
           on conflict (user_id, exercise_id) do update set one_rep_max = excluded.one_rep_max, updated_at = now() returning id::text as id, (xmax = 0) as inserted`,
          [randomUUID(), userId, exerciseId, value],
        );
  for (const row of rows) recordLiveChange(em, userId, { entity: 'ExerciseSetting', id: String(row.id), kind: row.inserted ? 'created' : 'updated' });
}

const HISTORY_SQL = `
select ts.id as "sessionId", ts.day_id as "dayId", to_char(d.date, 'YYYY-MM-DD') as "date", ts.start_time as "startTime",
       ts.split as "split", count(s.id)::int as "setCount",
       coalesce(sum(coalesce(s.reps, 0) * coalesce(s.load, 0)), 0) as "volume",
       max(case when s.load > 0 and s.reps > 0 then s.load * (1 + s.reps / 30.0) end) as "bestE1rm"
from training_sessions ts
join days d on d.id = ts.day_id
join training_exercises te on te.session_id = ts.id
left join training_sets s on s.training_exercise_id = te.id
where ts.user_id = $1 and te.exercise_id = $2
group by ts.id, d.date
order by ts.start_time desc, ts.id desc
limit $3 offset $4`;

const HISTORY_COUNT_SQL = `
select count(distinct te.session_id)::int as "total"
from training_exercises te
where te.user_id = $1 and te.exercise_id = $2`;

/** One page of the user's sessions with an exercise (newest first) and how many there are: two statements. */
export async function exerciseHistoryRows(em: EntityManager, userId: string, exerciseId: string, window: PageWindow): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    queryRows(em, HISTORY_SQL, [userId, exerciseId, window.limit, window.offset]),
    queryRows(em, HISTORY_COUNT_SQL, [userId, exerciseId]),
  ]);
  return { rows, total: Number(count!.total) };
}
