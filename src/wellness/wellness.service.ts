import type { EntityManager } from '@mikro-orm/postgresql';
import { insertWithEvent, recordEvent } from '../core/events/record-event.js';
import { lockDay, requireDay, requireDayUnlessOwned, type OwnedDay } from '../planning/day-scope.js';
import { completeChecklistItem } from '../planning/checklist.service.js';
import { ChecklistKey } from '../planning/checklist-key.js';
import { checkOrder, toDate, type DateInput } from '../core/datetimes.js';
import { recordFact } from '../core/events/fact-dispatcher.js';
import { removeOwned } from '../core/database/remove-owned.js';
import { MeditationSession } from './meditation-session.entity.js';
import { MoodEntry } from './mood-entry.entity.js';
import { SleepEntry } from './sleep-entry.entity.js';
import { StepsEntry } from './steps-entry.entity.js';
import { WaterIntake } from './water-intake.entity.js';

/*
 * Recovery and daily-habit logs of one day. Each `log` checks that the day is the caller's (NOT_FOUND
 * naming dayId otherwise), writes the record and its event in one transaction, and returns the record.
 * `time` defaults to now. Inputs are validated by the caller (GraphQL args or the Public API).
 */

export interface WaterLog {
  dayId: string;
  /** Millilitres, positive. */
  volume: number;
  time?: DateInput | null;
  notes?: string | null;
}

export class WaterService {
  constructor(private readonly em: EntityManager) {}

  /**
   * Records water_logged { intakeId, amount, loggedAt }. An append-only log: the intake and its event
   * are written by one statement (`insertWithEvent`), no unit of work. `ownedDay`: the caller already
   * read `dayId` by its owner (the Public API's today), so its ownership is not checked twice.
   */
  async log(userId: string, input: WaterLog, options: { ownedDay?: OwnedDay } = {}): Promise<WaterIntake> {
    const now = new Date();
    const time = toDate(input.time, 'time') ?? now;
    await requireDayUnlessOwned(this.em, userId, input.dayId, options.ownedDay);
    const intake = this.em.create(WaterIntake, { userId, dayId: input.dayId, volume: input.volume, time, notes: input.notes ?? null }, { persist: false });
    await insertWithEvent(this.em, intake, userId, 'water_logged', { intakeId: intake.id, amount: intake.volume, loggedAt: now.toISOString() }, now);
    return intake;
  }

  /** Takes one intake back (its amount leaves the day's total). */
  async remove(userId: string, intakeId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      await removeOwned(em, WaterIntake, userId, intakeId, 'Water intake');
    });
  }
}

export interface StepsLog {
  dayId: string;
  /** Non-negative. */
  steps: number;
  time?: DateInput | null;
  notes?: string | null;
}

export class StepsService {
  constructor(private readonly em: EntityManager) {}

  async log(userId: string, input: StepsLog): Promise<StepsEntry> {
    const time = toDate(input.time, 'time') ?? new Date();
    return this.em.transactional(async (em) => {
      await requireDay(em, userId, input.dayId);
      return em.create(StepsEntry, { userId, dayId: input.dayId, steps: input.steps, time, notes: input.notes ?? null });
    });
  }

  async remove(userId: string, entryId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      await removeOwned(em, StepsEntry, userId, entryId, 'Steps entry');
    });
  }
}

export interface MeditationLog {
  dayId: string;
  /** Minutes, positive. */
  duration: number;
  type?: string | null;
  time?: DateInput | null;
  notes?: string | null;
}

export class MeditationService {
  constructor(private readonly em: EntityManager) {}

  /**
   * Records meditation_logged { sessionId, duration, loggedAt } and ticks the day's MEDITATION checklist
   * item with the minutes (as a toggle would) unless it is already ticked.
   */
  async log(userId: string, input: MeditationLog): Promise<MeditationSession> {
    const now = new Date();
    const time = toDate(input.time, 'time') ?? now;
    return this.em.transactional(async (em) => {
      const day = await lockDay(em, userId, input.dayId);
      const session = em.create(MeditationSession, {
        userId,
        dayId: input.dayId,
        duration: input.duration,
        type: input.type?.trim() || null,
        time,
        notes: input.notes ?? null,
      });
      recordEvent(em, userId, 'meditation_logged', { sessionId: session.id, duration: session.duration, loggedAt: now.toISOString() }, now);
      await em.flush();
      session.tickedChecklist = await completeChecklistItem(em, day, ChecklistKey.MEDITATION, session.duration, now);
      return session;
    });
  }

  /** Takes a session back: `meditation_deleted` (gamification takes its XP back). The checklist item stays as it is. */
  async remove(userId: string, sessionId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      await removeOwned(em, MeditationSession, userId, sessionId, 'Meditation session');
      recordFact(em, userId, 'meditation_deleted', { sessionId });
    });
  }
}

export interface MoodLog {
  dayId: string;
  /** 1-10. */
  mood: number;
  /** 1-10. */
  energy: number;
  time?: DateInput | null;
  notes?: string | null;
}

export class MoodService {
  constructor(private readonly em: EntityManager) {}

  /** Stores the check-in and sets the day's mood and energy to it. */
  async log(userId: string, input: MoodLog): Promise<MoodEntry> {
    const time = toDate(input.time, 'time') ?? new Date();
    return this.em.transactional(async (em) => {
      const day = await lockDay(em, userId, input.dayId);
      const replaced = { mood: day.mood ?? null, energy: day.energy ?? null };
      day.mood = input.mood;
      day.energy = input.energy;
      const entry = em.create(MoodEntry, { userId, dayId: input.dayId, mood: input.mood, energy: input.energy, time, notes: input.notes ?? null });
      entry.replaced = replaced;
      return entry;
    });
  }

  /** Takes a check-in back and sets the day's mood and energy to `day` (what they were before it). */
  async remove(userId: string, entryId: string, day: { mood: number | null; energy: number | null }): Promise<void> {
    await this.em.transactional(async (em) => {
      const entry = await removeOwned(em, MoodEntry, userId, entryId, 'Mood entry');
      const owned = await lockDay(em, userId, entry.dayId);
      owned.mood = day.mood;
      owned.energy = day.energy;
    });
  }
}

export interface SleepLog {
  dayId: string;
  /** Hours, positive. */
  duration: number;
  bedtime?: DateInput | null;
  wakeTime?: DateInput | null;
  /** 1-10. */
  quality?: number | null;
  notes?: string | null;
}

export class SleepService {
  constructor(private readonly em: EntityManager) {}

  /** Stores the night and sets the day's sleepHours to its duration. */
  async log(userId: string, input: SleepLog): Promise<SleepEntry> {
    const bedtime = toDate(input.bedtime, 'bedtime') ?? null;
    const wakeTime = toDate(input.wakeTime, 'wakeTime') ?? null;
    checkOrder(bedtime, wakeTime, 'bedtime', 'wakeTime');
    return this.em.transactional(async (em) => {
      const day = await lockDay(em, userId, input.dayId);
      const replaced = day.sleepHours ?? null;
      day.sleepHours = input.duration;
      const entry = em.create(SleepEntry, {
        userId,
        dayId: input.dayId,
        duration: input.duration,
        bedtime,
        wakeTime,
        quality: input.quality ?? null,
        notes: input.notes ?? null,
      });
      entry.replacedSleepHours = replaced;
      return entry;
    });
  }

  /** Takes a night back and sets the day's sleepHours to `sleepHours` (what it was before it). */
  async remove(userId: string, entryId: string, sleepHours: number | null): Promise<void> {
    await this.em.transactional(async (em) => {
      const entry = await removeOwned(em, SleepEntry, userId, entryId, 'Sleep entry');
      (await lockDay(em, userId, entry.dayId)).sleepHours = sleepHours;
    });
  }
}
