import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readRows } from '../core/database/read-rows.js';
import { CardioSession } from './cardio-session.entity.js';
import { MobilitySession } from './mobility-session.entity.js';
import { TrainingExercise } from './training-exercise.entity.js';
import { TrainingSession } from './training-session.entity.js';
import { TrainingSet } from './training-set.entity.js';

/** Rows grouped under each requested key, in query order; a key without rows gets []. */
export function groupUnder<T>(keys: readonly string[], rows: T[], keyOf: (row: T) => string): T[][] {
  const groups = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((k) => groups.get(k)!);
}

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
  };
}

export type TrainingLoaders = ReturnType<typeof createTrainingLoaders>;
