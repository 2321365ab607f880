import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { groupUnder } from '../training/training.loaders.js';
import { MeditationSession } from './meditation-session.entity.js';
import { MoodEntry } from './mood-entry.entity.js';
import { SleepEntry } from './sleep-entry.entity.js';
import { StepsEntry } from './steps-entry.entity.js';
import { WaterIntake } from './water-intake.entity.js';

type Timed = { dayId: string; time: Date; id: string };

/** One loader per wellness record kind: the records of many days in one query, by time. */
function byDay<T extends Timed>(em: EntityManager, entity: new () => T) {
  return new DataLoader<string, T[]>(async (dayIds) => {
    const rows = (await em.find(entity as never, { dayId: { $in: [...dayIds] } } as never, {
      orderBy: { time: 'asc', id: 'asc' } as never,
    })) as T[];
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
      const rows = await em.find(SleepEntry, { dayId: { $in: [...dayIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
      return groupUnder(dayIds, rows, (r) => r.dayId);
    }),
  };
}

export type WellnessLoaders = ReturnType<typeof createWellnessLoaders>;
