import DataLoader from 'dataloader';
import type { DayFieldSources } from '../planning/day-fields.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, readRows } from '../core/database/read-rows.js';
import { CardioSession } from './cardio-session.entity.js';
import { groupUnder } from '../core/group-under.js';
import { MobilitySession } from './mobility-session.entity.js';
import { TrainingExercise } from './training-exercise.entity.js';
import { TrainingSession } from './training-session.entity.js';
import { TrainingSet } from './training-set.entity.js';

/**
 * Per-request loaders of the training module: one query per relation, whatever the number of parents.
 * They key on ids the caller reached through an owner-checked read, so need no user scope of their own.
 * They return plain read-only rows (src/core/database/read-rows.ts), not managed entities.
 */
export function createTrainingLoaders(em: EntityManager) {
  return {
    trainingSessionsByDayId: new DataLoader<string, TrainingSession[]>(async (dayIds) => {
      const rows = await readRows(em, TrainingSession, { where: 'dayId', values: dayIds, orderBy: ['startTime', 'id'] });
      return groupUnder(dayIds, rows, (r) => r.dayId);
    }),

    mobilitySessionsByDayId: new DataLoader<string, MobilitySession[]>(async (dayIds) => {
      const rows = await readRows(em, MobilitySession, { where: 'dayId', values: dayIds, orderBy: ['createdAt', 'id'] });
      return groupUnder(dayIds, rows, (r) => r.dayId);
    }),

    cardioSessionsByDayId: new DataLoader<string, CardioSession[]>(async (dayIds) => {
      const rows = await readRows(em, CardioSession, { where: 'dayId', values: dayIds, orderBy: ['startTime', 'id'] });
      return groupUnder(dayIds, rows, (r) => r.dayId);
    }),

    exercisesBySessionId: new DataLoader<string, TrainingExercise[]>(async (sessionIds) => {
      const rows = await readRows(em, TrainingExercise, { where: 'sessionId', values: sessionIds, orderBy: ['order', 'id'] });
      return groupUnder(sessionIds, rows, (r) => r.sessionId);
    }),

    setsByTrainingExerciseId: new DataLoader<string, TrainingSet[]>(async (ids) => {
      const rows = await readRows(em, TrainingSet, { where: 'trainingExerciseId', values: ids, orderBy: ['setNumber', 'createdAt', 'id'] });
      return groupUnder(ids, rows, (r) => r.trainingExerciseId);
    }),

    /**
     * What a set's percent1rm divides by, per training-exercise entry: the user's oneRepMax of the
     * exercise when set, otherwise the exercise's best (unrounded) e1RM over the 90 days before the
     * entry's session day (that day excluded). One statement for any number of entries.
     */
    percentReferenceByEntryId: new DataLoader<string, number | null>(async (entryIds) => {
      const rows = await queryRows(em, PERCENT_REFERENCE_SQL, [entryIds]);
      const byId = new Map(rows.map((r) => [r.entryId as string, r.reference === null ? null : Number(r.reference)]));
      return entryIds.map((id) => byId.get(id) ?? null);
    }),

    /** The user's oneRepMax of each exercise, keyed `userId|exerciseId`; one statement for all keys. */
    oneRepMaxByUserExercise: new DataLoader<string, number | null>(async (keys) => {
      const pairs = keys.map((k) => k.split('|') as [string, string]);
      const rows = await queryRows(em, ONE_REP_MAX_SQL, [pairs.map((p) => p[0]), pairs.map((p) => p[1])]);
      const byKey = new Map(rows.map((r) => [`${r.userId}|${r.exerciseId}`, r.oneRepMax as number | null]));
      return keys.map((k) => byKey.get(k) ?? null);
    }),
  };
}

/** Days of the best-e1RM window before a session's day (operations.md: "the 90 days before"). */
export const PERCENT_WINDOW_DAYS = 90;

const PERCENT_REFERENCE_SQL = `
select te.id as "entryId", coalesce(es.one_rep_max, best.value) as "reference"
from training_exercises te
join training_sessions ts on ts.id = te.session_id
join days d on d.id = ts.day_id
left join exercise_settings es on es.user_id = te.user_id and es.exercise_id = te.exercise_id
left join lateral (
  select max(s.load * (1 + s.reps / 30.0)) as value
  from training_exercises pe
  join training_sessions ps on ps.id = pe.session_id
  join days pd on pd.id = ps.day_id
  join training_sets s on s.training_exercise_id = pe.id
  where pe.user_id = te.user_id and pe.exercise_id = te.exercise_id
    and pd.date >= d.date - ${PERCENT_WINDOW_DAYS} and pd.date < d.date
    and s.load > 0 and s.reps > 0
) best on true
where te.id = any($1)`;

const ONE_REP_MAX_SQL = `
select es.user_id as "userId", es.exercise_id as "exerciseId", es.one_rep_max as "oneRepMax"
from exercise_settings es
join unnest($1::uuid[], $2::uuid[]) as k(user_id, exercise_id) on k.user_id = es.user_id and k.exercise_id = es.exercise_id`;

export type TrainingLoaders = ReturnType<typeof createTrainingLoaders>;

/** The Day fields this domain adds and the records they read (followed by the day and week subscriptions). */
export const TRAINING_DAY_FIELDS = {
  trainingSessions: ['TrainingSession', 'TrainingExercise', 'TrainingSet', 'Exercise', 'ExerciseSetting'],
  mobilitySessions: ['MobilitySession'],
  cardioSessions: ['CardioSession'],
} as const satisfies DayFieldSources;
