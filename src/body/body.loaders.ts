import DataLoader from 'dataloader';
import type { DayFieldSources } from '../planning/day-fields.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readRows } from '../core/database/read-rows.js';
import { groupUnder } from '../core/group-under.js';
import { BodyMeasurement } from './body-measurement.entity.js';

export function createBodyLoaders(em: EntityManager) {
  return {
    measurementsByDayId: new DataLoader<string, BodyMeasurement[]>(async (dayIds) => {
      const rows = await readRows(em, BodyMeasurement, { where: 'dayId', values: dayIds, orderBy: ['measuredAt', 'id'] });
      return groupUnder(dayIds, rows, (r) => r.dayId);
    }),
  };
}

export type BodyLoaders = ReturnType<typeof createBodyLoaders>;

/** The Day fields this domain adds and the records they read (followed by the day and week subscriptions). */
export const BODY_DAY_FIELDS = { bodyMeasurements: ['BodyMeasurement'] } as const satisfies DayFieldSources;
