import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
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
 */
export function createTrainingLoaders(em: EntityManager) {
  return {
    trainingSessionsByDayId: new DataLoader<string, TrainingSession[]>(async (dayIds) => {
      const rows = await em.find(TrainingSession, { dayId: { $in: [...dayIds] } }, { orderBy: { startTime: 'asc', id: 'asc' } });
      return groupUnder(dayIds, rows, (r) => r.dayId);
    }),

    mobilitySessionsByDayId: new DataLoader<string, MobilitySession[]>(async (dayIds) => {
      const rows = await em.find(MobilitySession, { dayId: { $in: [...dayIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
      return groupUnder(dayIds, rows, (r) => r.dayId);
    }),

    cardioSessionsByDayId: new DataLoader<string, CardioSession[]>(async (dayIds) => {
      const rows = await em.find(CardioSession, { dayId: { $in: [...dayIds] } }, { orderBy: { startTime: 'asc', id: 'asc' } });
      return groupUnder(dayIds, rows, (r) => r.dayId);
    }),

    exercisesBySessionId: new DataLoader<string, TrainingExercise[]>(async (sessionIds) => {
      const rows = await em.find(TrainingExercise, { sessionId: { $in: [...sessionIds] } }, { orderBy: { order: 'asc', id: 'asc' } });
      return groupUnder(sessionIds, rows, (r) => r.sessionId);
    }),

    setsByTrainingExerciseId: new DataLoader<string, TrainingSet[]>(async (ids) => {
      const rows = await em.find(TrainingSet, { trainingExerciseId: { $in: [...ids] } }, { orderBy: { setNumber: 'asc', createdAt: 'asc', id: 'asc' } });
      return groupUnder(ids, rows, (r) => r.trainingExerciseId);
    }),
  };
}

export type TrainingLoaders = ReturnType<typeof createTrainingLoaders>;
