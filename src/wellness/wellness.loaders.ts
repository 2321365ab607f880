import DataLoader from 'dataloader';
import type { DayFieldSources } from '../planning/day-fields.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readRows } from '../core/database/read-rows.js';
import { groupUnder } from '../core/group-under.js';
import { MeditationSession } from './meditation-session.entity.js';
import { MoodEntry } from './mood-entry.entity.js';
import { SleepEntry } from './sleep-entry.entity.js';
import { StepsEntry } from './steps-entry.entity.js';
import { WaterIntake } from './water-intake.entity.js';

type Timed = { dayId: string; time: Date; id: string };

/** One loader per wellness record kind: the records of many days in one query, by time (plain read-only rows). */
function byDay<T extends Timed>(em: EntityManager, entity: new () => T) {
  return new DataLoader<string, T[]>(async (dayIds) => {
    const rows = await readRows<T>(em, entity, { where: 'dayId', values: dayIds, orderBy: ['time', 'id'] });
    return groupUnder(dayIds, rows, (r) => r.dayId);
  });
}

export function createWellnessLoaders(em: EntityManager) {
  return {
    waterIntakesByDayId: byDay(em, WaterIntake),
    stepsEntriesByDayId: byDay(em, StepsEntry),
    meditationSessionsByDayId: byDay(em, MeditationSession),
    moodEntriesByDayId: byDay(em, MoodEntry),
    sleepEntriesByDayId: new DataLoader<string, SleepEntry[]>(async (dayIds) => {
      const rows = await readRows(em, SleepEntry, { where: 'dayId', values: dayIds, orderBy: ['createdAt', 'id'] });
      return groupUnder(dayIds, rows, (r) => r.dayId);
    }),
  };
}

export type WellnessLoaders = ReturnType<typeof createWellnessLoaders>;

/** The Day fields this domain adds and the records they read (followed by the day and week subscriptions). */
export const WELLNESS_DAY_FIELDS = {
  waterIntakes: ['WaterIntake'],
  stepsEntries: ['StepsEntry'],
  meditationSessions: ['MeditationSession'],
  moodEntries: ['MoodEntry'],
  sleepEntries: ['SleepEntry'],
} as const satisfies DayFieldSources;
