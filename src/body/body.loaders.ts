import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { groupUnder } from '../training/training.loaders.js';
import { BodyMeasurement } from './body-measurement.entity.js';

export function createBodyLoaders(em: EntityManager) {
  return {
    measurementsByDayId: new DataLoader<string, BodyMeasurement[]>(async (dayIds) => {
      const rows = await em.find(BodyMeasurement, { dayId: { $in: [...dayIds] } }, { orderBy: { measuredAt: 'asc', id: 'asc' } });
      return groupUnder(dayIds, rows, (r) => r.dayId);
    }),
  };
}

export type BodyLoaders = ReturnType<typeof createBodyLoaders>;
